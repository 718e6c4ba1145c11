/**
 * The layering DESIGN.md draws, checked on the import and require specifiers of every TypeScript file under
 * kernel/, plugins/ (.tsx too) and providers/: each rule reports every file and line that breaks it, and proves it
 * can by reporting a small fixture written to break it.
 */
import fs from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import ts from "typescript";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { REPO_ROOT } from "./helpers/sluice";

interface SourceFile {
  /** Relative to the repository root, with forward slashes. */
  path: string;
  text: string;
}

/**
 * What a file imports (at the line of its specifier): a repository path without its extension, or "sluice" for the
 * package's own entry point; or else a package of node's or npm's, by its name.
 */
interface Import {
  line: number;
  specifier: string;
  target: string;
  package?: string;
}

function importsOf(file: SourceFile): Import[] {
  const imports: Import[] = [];
  for (const { fileName: specifier, pos } of ts.preProcessFile(file.text, true, true).importedFiles) {
    const line = file.text.slice(0, pos).split("\n").length;
    let target: string;
    if (specifier.startsWith(".")) target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), specifier)).replace(/\.(ts|js)$/, "").replace(/\/index$/, "");
    else if (specifier === "sluice" || specifier.startsWith("sluice/")) target = "sluice";
    else {
      imports.push({ line, specifier, target: specifier, package: packageName(specifier) });
      continue;
    }
    imports.push({ line, specifier, target: target === "index" ? "sluice" : target });
  }
  return imports;
}

/** `kafkajs/types` is of package `kafkajs`, `@scope/name/deep` of `@scope/name`. */
const packageName = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

const within = (target: string, folder: string) => target === folder || target.startsWith(`${folder}/`);

interface Rule {
  name: string;
  governs(file: string): boolean;
  /** Whether `file` may import the Sluice file `target`. */
  allows(file: string, target: string): boolean;
  /** Whether `file` may import node's or npm's package `name`; without it, every package is allowed. */
  allowsPackage?(file: string, name: string): boolean;
  /** Files that break the rule, and what it must report for them. */
  fixture: { files: SourceFile[]; reports: string[] };
}

const PACKAGE_TEMPLATE = "plugins/new-command/package-template";
const CONSOLE_CLIENT = "plugins/web-ui/client";
const pluginFolder = (file: string) => file.split("/").slice(0, 2).join("/");

/**
 * The folders of the streams runtime, lowest first. A file imports its own layer and the layers before it, never one
 * after it, so the layers import one another in one direction only and no two of them in a circle. A file at the
 * runtime's root is a layer of its own; kafka/ counts by its sub-folders. A folder missing here is reported: place
 * it where its imports put it.
 */
const STREAMS_LAYERS = [
  "streams-config",
  "code",
  "metrics",
  "events",
  "serdes",
  "processor",
  "state",
  "topology",
  "engine",
  "kafka/cluster",
  "kafka/topics",
  "kafka/changelog",
  "kafka/assignment",
  "kafka/processing",
  "testing",
  "lifecycle",
  "logging",
  "application",
  "streams-runtime",
  "deployment",
  "index",
  "plugin",
];

/** The layer of a file or import target under providers/streams. */
function streamsLayer(target: string): string {
  const [first = "index", second] = target.slice("providers/streams/".length).replace(/\.ts$/, "").replace(/(^|\/)index$/, "").split("/").filter(Boolean);
  return first === "kafka" && second !== undefined ? `kafka/${second}` : first;
}

const streamsRank = (target: string) => STREAMS_LAYERS.indexOf(streamsLayer(target));

const RULES: Rule[] = [
  {
    name: "the kernel imports no plugin and no provider",
    governs: (file) => within(file, "kernel"),
    // The package's entry point re-exports providers (the test driver, the serdes), so it is out of bounds too.
    allows: (_, target) => !within(target, "plugins") && !within(target, "providers") && target !== "sluice",
    fixture: {
      files: [{ path: "kernel/fixture/runner.ts", text: `import fs from "node:fs";\nimport { Logger } from "../logger";\nimport { startBroker } from "../../providers/broker";\nexport { InfoPlugin } from "../../plugins/info";\n` }],
      reports: ["kernel/fixture/runner.ts:3 imports ../../providers/broker", "kernel/fixture/runner.ts:4 imports ../../plugins/info"],
    },
  },
  {
    name: "a plugin imports only \"sluice\" and its own folder",
    // The package `sluice new` writes is a user's package, and the console's client is browser code: the rules below govern them.
    governs: (file) => within(file, "plugins") && !within(file, PACKAGE_TEMPLATE) && !within(file, CONSOLE_CLIENT),
    allows: (file, target) => target === "sluice" || within(target, pluginFolder(file)),
    fixture: {
      files: [
        {
          path: "plugins/fixture/fixture-plugin.ts",
          text: `import type { Plugin } from "sluice";\nimport { routes } from "./routes";\nimport { InfoPlugin } from "../info";\nimport { StartupError } from "../../kernel/errors";\n\nconst runtime = require("../../providers/streams");\n`,
        },
        { path: "plugins/fixture/fixture-view.tsx", text: `import { sendJson } from "sluice";\nimport type { LogLevel } from "../../kernel/logger";\n` },
      ],
      reports: [
        "plugins/fixture/fixture-plugin.ts:3 imports ../info",
        "plugins/fixture/fixture-plugin.ts:4 imports ../../kernel/errors",
        "plugins/fixture/fixture-plugin.ts:6 imports ../../providers/streams",
        "plugins/fixture/fixture-view.tsx:2 imports ../../kernel/logger",
      ],
    },
  },
  {
    // It runs in the browser, bundled on its own: its answer types are generated into it from the route specs.
    name: "the console's client imports nothing of Sluice's outside its own folder",
    governs: (file) => within(file, CONSOLE_CLIENT),
    allows: (_, target) => within(target, CONSOLE_CLIENT),
    fixture: {
      files: [
        {
          path: `${CONSOLE_CLIENT}/views/fixture-view.tsx`,
          text: `import { h } from "preact";\nimport { Since } from "../components/since";\nimport { ROLES } from "sluice";\nimport { CONSOLE_ASSETS } from "../../console-assets";\n`,
        },
      ],
      reports: [`${CONSOLE_CLIENT}/views/fixture-view.tsx:3 imports sluice`, `${CONSOLE_CLIENT}/views/fixture-view.tsx:4 imports ../../console-assets`],
    },
  },
  {
    name: "the protocol package imports nothing of Sluice's outside itself",
    governs: (file) => within(file, "providers/kafka-protocol"),
    allows: (_, target) => within(target, "providers/kafka-protocol"),
    fixture: {
      files: [{ path: "providers/kafka-protocol/records/fixture.ts", text: `import { crc32c } from "./crc32c";\nimport { ApiCodec } from "../api-codec";\nimport { silentLogger } from "../../../kernel/logger";\n` }],
      reports: ["providers/kafka-protocol/records/fixture.ts:3 imports ../../../kernel/logger"],
    },
  },
  {
    name: "the Kafka client never imports the broker",
    governs: (file) => within(file, "providers/kafka-client"),
    allows: (_, target) => !within(target, "providers/broker"),
    fixture: {
      files: [{ path: "providers/kafka-client/fixture.ts", text: `import { ApiCodec } from "../kafka-protocol";\nimport {\n  ApiError,\n} from "../broker/handlers/error-code-of";\n` }],
      reports: ["providers/kafka-client/fixture.ts:4 imports ../broker/handlers/error-code-of"],
    },
  },
  {
    // kafkajs stays for the examples' feeder, the tests and the benches: an independent client to check Sluice against.
    name: "the streams runtime and the Kafka client use no kafkajs: the runtime's one Kafka client is Sluice's own",
    governs: (file) => within(file, "providers/streams") || within(file, "providers/kafka-client"),
    allows: () => true,
    allowsPackage: (_, name) => name !== "kafkajs",
    fixture: {
      files: [
        { path: "providers/streams/kafka/topics/fixture.ts", text: `import type { ClusterAdmin } from "../../../kafka-client";\nimport type { Admin } from "kafkajs";\n` },
        { path: "providers/kafka-client/fixture.ts", text: `import net from "node:net";\nconst { Kafka } = require("kafkajs/src");\n` },
      ],
      reports: ["providers/streams/kafka/topics/fixture.ts:2 imports kafkajs", "providers/kafka-client/fixture.ts:2 imports kafkajs/src"],
    },
  },
  {
    name: "the streams runtime's folders import only their own layer and those below it",
    governs: (file) => within(file, "providers/streams"),
    allows: (file, target) => !within(target, "providers/streams") || (streamsRank(target) >= 0 && streamsRank(target) <= streamsRank(file)),
    fixture: {
      files: [
        {
          path: "providers/streams/state/fixture.ts",
          text: `import { stringSerde } from "../serdes/builtin-serdes";\nimport type { StoreDef } from "../topology/topology-model";\nimport { partitionOfKey } from "../../kafka-client";\n`,
        },
        {
          path: "providers/streams/kafka/topics/fixture.ts",
          text: `import type { OutputRecord } from "../../engine/stream-task";\nimport { TopicEnds } from "./topic-ends";\nimport { StreamThread } from "../processing/stream-thread";\n`,
        },
        { path: "providers/streams/scheduling/fixture.ts", text: `import { openTaskState } from "../state";\n` },
      ],
      reports: [
        "providers/streams/state/fixture.ts:2 imports ../topology/topology-model",
        "providers/streams/kafka/topics/fixture.ts:3 imports ../processing/stream-thread",
        "providers/streams/scheduling/fixture.ts:1 imports ../state",
      ],
    },
  },
  {
    name: "the examples import only \"sluice\" and each other",
    governs: (file) => within(file, "providers/examples"),
    allows: (_, target) => target === "sluice" || within(target, "providers/examples"),
    fixture: {
      files: [{ path: "providers/examples/fixture.ts", text: `import { Kafka } from "kafkajs";\nimport { StreamsBuilder } from "sluice";\nimport { startExampleFeeder } from "./example-feeder";\nimport "../kafka-client/connection-pool";\n` }],
      reports: ["providers/examples/fixture.ts:4 imports ../kafka-client/connection-pool"],
    },
  },
  {
    name: "the package sluice new writes imports only \"sluice\" and itself",
    governs: (file) => within(file, PACKAGE_TEMPLATE),
    allows: (_, target) => target === "sluice" || within(target, PACKAGE_TEMPLATE),
    fixture: {
      files: [{ path: `${PACKAGE_TEMPLATE}/src/fixture.ts`, text: `import { TopologyTestDriver } from "sluice";\nimport { Greetings } from "./greetings";\nimport { StartupError } from "../../../../kernel/errors";\n` }],
      reports: [`${PACKAGE_TEMPLATE}/src/fixture.ts:3 imports ../../../../kernel/errors`],
    },
  },
];

function violations(rule: Rule, files: readonly SourceFile[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    if (!rule.governs(file.path)) continue;
    for (const { line, specifier, target, package: name } of importsOf(file)) {
      const allowed = name === undefined ? rule.allows(file.path, target) : (rule.allowsPackage?.(file.path, name) ?? true);
      if (!allowed) found.push(`${file.path}:${line} imports ${specifier}`);
    }
  }
  return found;
}

const SOURCES: SourceFile[] = fg
  .sync(["kernel/**/*.ts", "plugins/**/*.ts", "plugins/**/*.tsx", "providers/**/*.ts"], { cwd: REPO_ROOT, ignore: ["**/node_modules/**", "**/*.d.ts"] })
  .sort()
  .map((file) => ({ path: file, text: fs.readFileSync(path.join(REPO_ROOT, file), "utf8") }));

const test = suite("architecture: who imports whom");

test("the sources are found: kernel, plugins (the console's .tsx too), providers and the examples", () => {
  for (const folder of ["kernel", "plugins", CONSOLE_CLIENT, "providers/kafka-protocol", "providers/kafka-client", "providers/broker", "providers/streams", "providers/examples"]) {
    assert.ok(SOURCES.some((file) => within(file.path, folder)), `no source under ${folder}`);
  }
});

test("every layer of the streams runtime's order has sources", () => {
  const empty = STREAMS_LAYERS.filter((layer) => !SOURCES.some((file) => within(file.path, "providers/streams") && streamsLayer(file.path) === layer));
  assert.equal(empty, []);
});

for (const rule of RULES) {
  test(rule.name, () => {
    const found = violations(rule, SOURCES);
    assert.equal(found, [], `\n${found.join("\n")}`);
  });

  test(`${rule.name}: a file that breaks it is reported at each offending line`, () => {
    assert.equal(violations(rule, rule.fixture.files), rule.fixture.reports);
  });
}

test.run();
