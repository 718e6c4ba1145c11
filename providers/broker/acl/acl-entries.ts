/**
 * ACLs as `broker.acls` writes them, one per entry:
 *   `ALLOW|DENY <principal> <operation>[,<operation>…] <RESOURCE_TYPE>[:<name>] [PREFIXED] [FROM <host>]`
 * for example `ALLOW User:app READ,WRITE TOPIC:app- PREFIXED` or `DENY User:* DELETE TOPIC:* FROM 10.0.0.7`.
 * Keywords are case-insensitive and may be written as Kafka's tools print them (`IdempotentWrite`, `TransactionalId`);
 * the name of CLUSTER may be left out.
 */
import {
  AclOperation,
  AclPermission,
  type AclBinding,
  type AclOperationCode,
  CLUSTER_NAME,
  invalidBindingReason,
  PatternType,
  ResourceType,
  type ResourceTypeCode,
  WILDCARD,
} from "./acl-binding";

export class AclEntryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AclEntryError";
  }
}

const FORM = "ALLOW|DENY <principal> <operation>[,<operation>...] <TYPE>[:<name>] [PREFIXED] [FROM <host>]";

const keyword = (word: string) => word.replace(/[_-]/g, "").toUpperCase();
const lookUp = <T extends number>(table: Record<string, T>, word: string): T | undefined =>
  Object.entries(table).find(([name]) => keyword(name) === keyword(word) && name !== "ANY" && name !== "MATCH")?.[1];

/** The bindings of one entry (one per operation it names). Throws AclEntryError naming what is wrong. */
export function parseAclEntry(entry: string): AclBinding[] {
  const words = entry.trim().split(/\s+/);
  if (words.length < 4) throw new AclEntryError(`'${entry}' is not ${FORM}`);
  const [permissionWord, principal, operationsWord, resourceWord, ...rest] = words;
  const permission = lookUp(AclPermission, permissionWord);
  if (permission !== AclPermission.ALLOW && permission !== AclPermission.DENY) throw new AclEntryError(`'${entry}': '${permissionWord}' is neither ALLOW nor DENY`);
  const operations = operationsWord.split(",").map((word) => {
    const operation = lookUp(AclOperation, word);
    if (operation === undefined) throw new AclEntryError(`'${entry}': unknown operation '${word}'`);
    return operation as AclOperationCode;
  });
  const colon = resourceWord.indexOf(":");
  const typeWord = colon < 0 ? resourceWord : resourceWord.slice(0, colon);
  const resourceType = lookUp(ResourceType, typeWord) as ResourceTypeCode | undefined;
  if (resourceType === undefined) throw new AclEntryError(`'${entry}': unknown resource type '${typeWord}' (TOPIC, GROUP, CLUSTER, TRANSACTIONAL_ID)`);
  const resourceName = colon < 0 ? (resourceType === ResourceType.CLUSTER ? CLUSTER_NAME : "") : resourceWord.slice(colon + 1);
  const { prefixed, host } = modifiers(entry, rest);
  return operations.map((operation) => {
    const binding: AclBinding = {
      resourceType,
      resourceName,
      patternType: prefixed ? PatternType.PREFIXED : PatternType.LITERAL,
      principal,
      host,
      operation,
      permission,
    };
    const invalid = invalidBindingReason(binding);
    if (invalid) throw new AclEntryError(`'${entry}': ${invalid}`);
    return binding;
  });
}

function modifiers(entry: string, words: string[]): { prefixed: boolean; host: string } {
  let prefixed = false;
  let host = WILDCARD;
  for (let i = 0; i < words.length; i++) {
    const word = keyword(words[i]);
    if (word === "PREFIXED" && !prefixed) prefixed = true;
    else if (word === "FROM" && i + 1 < words.length && host === WILDCARD) host = words[++i];
    else throw new AclEntryError(`'${entry}': unexpected '${words[i]}' (${FORM})`);
  }
  return { prefixed, host };
}

/** Entries separated by `;` or line breaks; blank ones and `#` comments are skipped. */
export function parseAclEntries(text: string): AclBinding[] {
  return text
    .split(/[;\r\n]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "" && !entry.startsWith("#"))
    .flatMap(parseAclEntry);
}
