/**
 * What protobufjs's parse result does not keep of a `.proto` file's declaration order, read from its tokens: the
 * order of its imports with their kinds (protobufjs lists weak imports apart and public ones as plain), and the order
 * each message declares its nested messages and map fields in (protoc lists a map field's entry type among the nested
 * messages where the map field is declared; protobufjs keeps fields and nested messages apart).
 */
import { tokenize } from "protobufjs";
import { mapEntryNameOf } from "./protobuf-names";

export interface Import {
  path: string;
  kind: "public" | "weak" | "plain";
}

/** The file's imports in the order it declares them. */
export function importsOf(text: string): Import[] {
  const tokens = tokensOf(text);
  const imports: Import[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] !== "import") continue;
    const kind = tokens[i + 1] === "public" || tokens[i + 1] === "weak" ? tokens[i + 1] : "plain";
    const quote = kind === "plain" ? i + 1 : i + 2;
    if (tokens[quote] === '"' || tokens[quote] === "'") imports.push({ path: tokens[quote + 1], kind: kind as Import["kind"] });
  }
  return imports;
}

/**
 * By message path (`Outer.Inner`, without the package): the names of its nested messages and map entries, in order.
 * Only `message` and `map<…> name` declarations are noted; any other block (enum, oneof, service, option values) is
 * skipped over by its braces.
 */
export function nestedDeclarationOrder(text: string): Map<string, string[]> {
  const tokens = tokensOf(text);
  const order = new Map<string, string[]>();
  const blocks: (string | null)[] = []; // the path of each open message block, null for other blocks
  const current = () => (blocks.length === 0 ? "" : blocks[blocks.length - 1]);
  const note = (name: string) => {
    const path = current();
    if (path === null || path === "") return;
    order.set(path, [...(order.get(path) ?? []), name]);
  };
  let opening: string | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === "message" && tokens[i + 2] === "{" && current() !== null) {
      const parent = current();
      note(tokens[i + 1]);
      opening = parent === "" ? tokens[i + 1] : `${parent}.${tokens[i + 1]}`;
      i += 1;
    } else if (token === "map" && tokens[i + 1] === "<") {
      const close = tokens.indexOf(">", i);
      if (close > 0) note(mapEntryNameOf(tokens[close + 1]));
    } else if (token === "{") {
      blocks.push(opening);
      opening = null;
    } else if (token === "}") {
      blocks.pop();
    }
  }
  return order;
}

function tokensOf(text: string): string[] {
  const tokenizer = tokenize(text, false);
  const tokens: string[] = [];
  for (let token = tokenizer.next(); token !== null; token = tokenizer.next()) tokens.push(token);
  return tokens;
}
