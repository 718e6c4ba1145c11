/**
 * config/README.md is written from the sections Sluice's plugins, the kernel and the examples package declare:
 * after changing a declaration, `npm run config-readme` writes it again (a test fails while they differ).
 */
import fs from "node:fs";
import path from "node:path";
import type { ConfigSection, KeySpec } from "../kernel/config/config-schema";
import type { ConfigDeclarations, SectionClaim } from "../kernel/config/config-validation";
import { discoveredDeclarations } from "../kernel/config/plugin-configuration";
import { SLUICE_ROOT } from "../kernel/kernel";
import { ServiceLoader } from "../kernel/service-loader";

export const CONFIG_README = path.join(SLUICE_ROOT, "config", "README.md");

const INTRO = `# Configuration

Every key Sluice reads, by section; each section is declared by the plugin that owns it (the kernel owns \`server\`, \`log\` and \`plugins\`), next to its code. A plugin may claim a sub-section of another's section, as the REST plugins claim \`server.sse\`, \`server.query\` and others: a key belongs to the longest section name it starts with. Set them in a file that cosmiconfig finds (\`sluice.config.json\`, \`.yaml\`, \`.js\`, \`.cjs\`, \`.sluicerc*\`, or a \`sluice\` key in package.json), nested (\`{"server": {"port": 8081}}\`) or dotted (\`{"server.port": 8081}\`); override them with environment variables (\`SLUICE_SERVER_PORT=8081\`: section and key in capitals, dots as underscores) and with command-line flags (\`sluice start --server.port=8081\`), in that order of precedence.

An unknown key, or a value of the wrong type, stops startup with a message naming the key and where it was set. So does a key of a section that no loaded plugin declares (remove the broker's descriptor line and \`broker.*\` is gone; remove the event-streams plugin's and \`server.sse.*\` are unknown keys of \`server\`); environment variables of such a section are not Sluice's and are ignored. A plugin of another package declares its own section the same way (\`configSection\`, exported by \`sluice\`), as the examples package does with \`examples.*\`.

This file is written by \`npm run config-readme\` from the declarations.
`;

/** The declarations of Sluice's own plugins and of the examples package. */
export function readmeDeclarations(): Promise<ConfigDeclarations> {
  return discoveredDeclarations(new ServiceLoader({ root: SLUICE_ROOT, sluiceRoot: SLUICE_ROOT, extraPackages: ["dist/providers/examples"] }));
}

export function configReadme(claims: readonly SectionClaim[]): string {
  // Each section is followed by the sub-sections other plugins claim of it (server, then server.sse, ...).
  const within = (inner: SectionClaim, outer: SectionClaim) => inner.section.name.startsWith(`${outer.section.name}.`);
  const ordered = claims.filter((claim) => !claims.some((outer) => within(claim, outer))).flatMap((outer) => [outer, ...claims.filter((inner) => within(inner, outer))]);
  return [INTRO, ...ordered.map((claim) => sectionText(claim, claims))].join("\n");
}

function sectionText({ owner, section }: SectionClaim, claims: readonly SectionClaim[]): string {
  const lines = [`## ${section.name}`, "", `${section.doc} Declared by ${owner.replace(/^plugin (.*)$/, "plugin `$1`")}.`, ""];
  // A named section that takes every key of another (applications.<id>.* and streams.*) lists only the keys it adds.
  const base = claims.find((other) => other.section !== section && !other.section.named && sharesMostKeys(section, other.section));
  const ownKeys = Object.entries(section.keys).filter(([key]) => !(section.named && base && Object.hasOwn(base.section.keys, key)));
  if (section.named && base) {
    const lacking = Object.keys(base.section.keys).filter((key) => !Object.hasOwn(section.keys, key));
    const except = lacking.length > 0 ? ` but ${lacking.map((key) => `\`${key}\``).join(", ")}` : "";
    lines.push(`Its keys are those of \`${base.section.name}\` above${except}${ownKeys.length > 0 ? ", and:" : "."}`);
    if (ownKeys.length === 0) return [...lines, ""].join("\n");
    lines.push("");
  }
  const prefix = section.named ? `${section.name}.<name>.` : `${section.name}.`;
  lines.push("| key | type | default | meaning |", "|---|---|---|---|");
  for (const [key, spec] of ownKeys) lines.push(`| \`${prefix}${key}\` | ${typeText(spec)} | ${defaultText(spec)} | ${docText(spec)} |`);
  const open = section.named && base?.section.open === section.open ? [] : Object.entries(section.open);
  if (open.length > 0) lines.push("", "Free-form keys, accepted as strings:", "", ...open.map(([start, doc]) => `- \`${prefix}${start}*\`: ${doc}`));
  return [...lines, ""].join("\n");
}

/** `section` takes the very declarations of `other`'s keys, but for a few that belong to `other` alone. */
function sharesMostKeys(section: ConfigSection, other: ConfigSection): boolean {
  const keys = Object.entries(other.keys);
  const shared = keys.filter(([key, spec]) => section.keys[key] === spec).length;
  return keys.length > 0 && shared > keys.length / 2;
}

function typeText(spec: KeySpec): string {
  if (spec.type === "string" && spec.choices) return `string (${spec.choices.map((choice) => (choice === "" ? "empty" : choice)).join(" / ")})`;
  if ((spec.type === "integer" || spec.type === "number") && (spec.min !== undefined || spec.max !== undefined)) {
    const range = spec.max === undefined ? `≥ ${spec.min}` : spec.min === undefined ? `≤ ${spec.max}` : `${spec.min}–${spec.max}`;
    return `${spec.type} (${range})`;
  }
  return spec.type;
}

function defaultText(spec: KeySpec): string {
  return spec.default === undefined ? "—" : `\`${JSON.stringify(spec.default)}\``;
}

function docText(spec: KeySpec): string {
  return spec.deprecated === undefined ? spec.doc : `${spec.doc} **Deprecated**: ${spec.deprecated}`;
}

if (require.main === module) {
  readmeDeclarations().then(
    (declarations) => fs.writeFileSync(CONFIG_README, configReadme(declarations.claims)),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
