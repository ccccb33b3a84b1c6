// `skillmd mcp` driven by a client written by others: the official MCP TypeScript SDK
// (its Client over a stdio transport; the Skills extension's methods sent as custom
// requests). Every entry, digest, size and resource is checked against the files on
// disk, hostile URIs are refused, and a change on disk is announced.
// usage: node sdk_client.mjs PATH/TO/skillmd
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/v4";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const cli = process.argv[2];
assert.ok(cli, "usage: node sdk_client.mjs SKILLMD");

// The tree: two skills, one with a nested skill, bundled text and binary files, and a
// link that leaves the skill; a secret beside the tree that nothing may reach.
const root = fs.mkdtempSync(path.join(os.tmpdir(), "skillmd-mcp-"));
const skills = path.join(root, "skills");
const put = (rel, bytes) => {
  const p = path.join(skills, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, bytes);
};
put("alpha/SKILL.md",
    "---\nname: alpha\ndescription: \"Alpha skill: reads files\"\nlicense: MIT\nmetadata:\n  version: 2\n" +
    "  ratio: 0.5\n  stable: true\n  owner: ~\n  tag: '12'\nallowed-tools: Read Grep\n---\n# Alpha\n\nSee references/guide.md.\n");
put("alpha/references/guide.md", "# Guide\n\nÜnïcödé text.\n");
put("alpha/scripts/run.sh", "#!/bin/sh\necho alpha\n");
put("alpha/assets/logo.bin", Buffer.from([0, 1, 2, 255, 254, 0x89, 0x50, 0x4e, 0x47]));
put("beta/SKILL.md", "---\nname: beta\ndescription: Beta skill\n---\nBeta body.\n");
put("beta/nested/SKILL.md", "---\nname: nested\ndescription: Nested under beta\n---\nNested body.\n");
fs.writeFileSync(path.join(root, "secret.txt"), "SECRET\n");
fs.symlinkSync(path.join(root), path.join(skills, "alpha", "escape"));
const empty = path.join(root, "empty");
fs.mkdirSync(empty);

const expectedFrontmatter = {
  "skill://alpha/SKILL.md": {
    name: "alpha", description: "Alpha skill: reads files", license: "MIT",
    metadata: { version: 2, ratio: 0.5, stable: true, owner: null, tag: "12" }, "allowed-tools": "Read Grep",
  },
  "skill://beta/SKILL.md": { name: "beta", description: "Beta skill" },
  "skill://beta/nested/SKILL.md": { name: "nested", description: "Nested under beta" },
};

const transport = new StdioClientTransport({
  command: cli,
  args: ["mcp", "--preset", "agent-skills", "--dir", `user=${skills}`, "--dir", `project=${empty}`, "--page-size", "1"],
  stderr: "ignore",
});
const client = new Client({ name: "skillmd-test", version: "1.0.0" });
let changed = 0;
client.setNotificationHandler(ResourceListChangedNotificationSchema, () => { changed += 1; });
await client.connect(transport);

const caps = client.getServerCapabilities();
assert.ok(caps.resources, "the resources capability");
assert.deepEqual(caps.extensions?.["io.modelcontextprotocol/skills"], { directoryRead: true });
await client.ping();

const Resource = z.object({ uri: z.string(), digest: z.string(), size: z.number() });
const Entry = z.object({ uri: z.string(), frontmatter: z.record(z.string(), z.unknown()), resources: z.array(Resource) });
const ListResult = z.object({
  resultType: z.literal("complete"), skills: z.array(Entry), nextCursor: z.string().optional(),
  ttlMs: z.number(), cacheScope: z.string(),
});
const GetResult = z.object({ resultType: z.literal("complete"), skill: Entry, ttlMs: z.number(), cacheScope: z.string() });

// skills/list, page by page (one skill a page).
const entries = [];
let cursor;
let pages = 0;
do {
  const r = await client.request({ method: "skills/list", params: cursor ? { cursor } : {} }, ListResult);
  entries.push(...r.skills);
  cursor = r.nextCursor;
  pages += 1;
} while (cursor);
assert.equal(pages, 3);
assert.deepEqual(entries.map((e) => e.uri), Object.keys(expectedFrontmatter));

const fileOf = (uri) => path.join(skills, ...decodeURI(uri.slice("skill://".length)).split("/"));
const sha = (bytes) => "sha256:" + createHash("sha256").update(bytes).digest("hex");
for (const e of entries) {
  assert.deepEqual(e.frontmatter, expectedFrontmatter[e.uri], e.uri);
  assert.ok(e.resources.some((r) => r.uri === e.uri), "SKILL.md is listed");
  const dir = path.dirname(fileOf(e.uri));
  // Complete: every regular file below the folder (the link out is not followed).
  const onDisk = [];
  const walk = (d, rel) => {
    for (const n of fs.readdirSync(d).sort()) {
      const p = path.join(d, n);
      const st = fs.lstatSync(p);
      if (st.isSymbolicLink()) continue;
      if (st.isDirectory()) walk(p, rel + n + "/");
      else onDisk.push(rel + n);
    }
  };
  walk(dir, "");
  assert.deepEqual(e.resources.map((r) => r.uri).sort(), onDisk.map((f) => e.uri.replace(/SKILL\.md$/, "") + f).sort());
  for (const r of e.resources) {
    const bytes = fs.readFileSync(fileOf(r.uri));
    assert.equal(r.digest, sha(bytes), r.uri);
    assert.equal(r.size, bytes.length, r.uri);
    const read = await client.readResource({ uri: r.uri });
    assert.equal(read.contents.length, 1);
    const c = read.contents[0];
    assert.equal(c.uri, r.uri);
    const got = c.text !== undefined ? Buffer.from(c.text, "utf8") : Buffer.from(c.blob, "base64");
    assert.equal(sha(got), r.digest, "read " + r.uri);
  }
}
assert.ok(entries[0].resources.some((r) => r.uri === "skill://alpha/assets/logo.bin"));
const blob = await client.readResource({ uri: "skill://alpha/assets/logo.bin" });
assert.ok(blob.contents[0].blob !== undefined, "binary files travel as blobs");
// The enclosing skill lists its nested skill's files too.
assert.ok(entries[1].resources.some((r) => r.uri === "skill://beta/nested/SKILL.md"));

// skills/get, and a skill nobody serves.
const got = await client.request({ method: "skills/get", params: { uri: "skill://beta/SKILL.md" } }, GetResult);
assert.deepEqual(got.skill, entries[1]);
const refused = async (method, params) => {
  try {
    await client.request({ method, params }, z.object({}).passthrough());
  } catch (e) {
    assert.equal(e.code, -32602, `${method} ${JSON.stringify(params)}: ${e.message}`);
    return;
  }
  assert.fail(`${method} ${JSON.stringify(params)} was answered`);
};
await refused("skills/get", { uri: "skill://gamma/SKILL.md" });
await refused("skills/get", { uri: "skill://alpha/references/guide.md" });

// resources/list covers every file of every skill, one page at a time.
const listed = [];
cursor = undefined;
do {
  const r = await client.listResources(cursor ? { cursor } : {});
  listed.push(...r.resources.map((x) => x.uri));
  cursor = r.nextCursor;
} while (cursor);
assert.deepEqual(listed.sort(), entries.flatMap((e) => e.resources.map((r) => r.uri)).sort());

// resources/directory/read
const DirResult = z.object({ resources: z.array(z.object({ uri: z.string(), name: z.string(), mimeType: z.string() })),
                             nextCursor: z.string().optional() });
const children = async (uri) => {
  const out = [];
  let c;
  do {
    const r = await client.request({ method: "resources/directory/read", params: c ? { uri, cursor: c } : { uri } }, DirResult);
    out.push(...r.resources);
    c = r.nextCursor;
  } while (c);
  return out;
};
assert.deepEqual((await children("skill://alpha")).map((r) => [r.name, r.mimeType]),
                 [["SKILL.md", "text/markdown"], ["assets", "inode/directory"], ["references", "inode/directory"],
                  ["scripts", "inode/directory"]]);
assert.deepEqual((await children("skill://alpha/references")).map((r) => r.uri), ["skill://alpha/references/guide.md"]);
await refused("resources/directory/read", { uri: "skill://alpha/SKILL.md" });
await refused("resources/directory/read", { uri: "skill://alpha/nothing" });

// Reads that try to leave a skill, or name what no skill holds.
for (const uri of [
  "skill://alpha/../secret.txt", "skill://alpha/%2e%2e/secret.txt", "skill://alpha/..%2Fsecret.txt",
  "skill://alpha/escape/secret.txt", "skill://alpha//references/guide.md", "skill:///etc/passwd",
  "file:///etc/passwd", "/etc/passwd", "skill://alpha/references/guide.md?x=1", "skill://alpha/%00",
  "skill://alpha/references/%2e%2e/%2e%2e/%2e%2e/secret.txt", "skill://alpha/references\\..\\..\\secret.txt",
  "skill://alpha/nothing.md", "skill://gamma/SKILL.md", "skill://alpha/references",
]) {
  await refused("resources/read", { uri });
}

// A change on disk: the next request is preceded by the server's announcement.
put("gamma/SKILL.md", "---\nname: gamma\ndescription: Added later\n---\nGamma.\n");
await client.ping();
await new Promise((resolve) => setTimeout(resolve, 200));
assert.equal(changed, 1, "notifications/resources/list_changed after a skill was added");
const after = await client.request({ method: "skills/get", params: { uri: "skill://gamma/SKILL.md" } }, GetResult);
assert.equal(after.skill.frontmatter.description, "Added later");

await client.close();
fs.rmSync(root, { recursive: true, force: true });
console.log(`ok: ${entries.length} skills, ${listed.length} resources checked through the MCP TypeScript SDK`);
