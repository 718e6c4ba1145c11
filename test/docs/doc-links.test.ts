/**
 * The documentation's cross-references stay true: every link from README.md and docs/*.md to a file of the repository
 * names a file that exists (and, with `#anchor`, one of its headings), and every citation of the REST reference in the
 * source (`docs/api.md#anchor`, in comments and in the OpenAPI document's descriptions) names one of its headings.
 */
import fs from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { REPO_ROOT } from "../helpers/sluice";

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

function anchorsOf(file: string): Set<string> {
  const text = fs.readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1])));
}

/** What is wrong with a reference to `target` (a path relative to `from`'s folder, maybe with #anchor), if anything. */
function brokenReference(from: string, target: string): string | undefined {
  const [file, anchor] = target.split("#");
  const resolved = file === "" ? from : path.resolve(path.dirname(from), file);
  if (!fs.existsSync(resolved)) return `${target}: no such file`;
  if (anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor)) return `${target}: no heading with anchor #${anchor}`;
  return undefined;
}

test("links between the README, docs/ and the repository's files resolve, anchors included", () => {
  const documents = ["README.md", ...fg.sync("docs/**/*.md", { cwd: REPO_ROOT })];
  const broken: string[] = [];
  for (const document of documents) {
    const file = path.join(REPO_ROOT, document);
    const text = fs.readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue; // http:, https:, mailto:
      const problem = brokenReference(file, target);
      if (problem) broken.push(`${document}: ${problem}`);
    }
  }
  assert.equal(broken, []);
});

test("the source cites the REST reference by its headings, and nothing cites the old API.md", () => {
  const sources = fg.sync(["{kernel,plugins,providers,config,bench,test}/**/*.{ts,tsx,js}", "index.ts"], { cwd: REPO_ROOT, ignore: ["**/node_modules/**", "test/docs/**"] });
  const broken: string[] = [];
  let citations = 0;
  for (const source of sources) {
    const text = fs.readFileSync(path.join(REPO_ROOT, source), "utf8");
    if (/(?<![\w/])API\.md/.test(text)) broken.push(`${source}: cites API.md`);
    for (const [, anchor] of text.matchAll(/docs\/api\.md#([\w-]+)/g)) {
      citations++;
      const problem = brokenReference(path.join(REPO_ROOT, "docs", "x"), `api.md#${anchor}`);
      if (problem) broken.push(`${source}: ${problem}`);
    }
  }
  assert.equal(broken, []);
  assert.ok(citations > 20, `${citations} citations found`);
});

test.run();
