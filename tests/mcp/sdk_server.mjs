// A Skills-extension server built on the official MCP TypeScript SDK (its low-level
// Server over a stdio transport), serving every folder of ROOT that holds a SKILL.md:
// the host-side source is tested against it as well as against `skillmd mcp`.
// usage: node sdk_server.mjs ROOT
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ReadResourceRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/v4";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const root = process.argv[2];
const sha = (b) => "sha256:" + createHash("sha256").update(b).digest("hex");
const files = (dir, rel = "") =>
  fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1)).flatMap((d) =>
    d.isDirectory() ? files(path.join(dir, d.name), rel + d.name + "/") : d.isFile() ? [rel + d.name] : []);
// The frontmatter as a flat object of `key: value` lines (enough for the test's skills).
const frontmatter = (text) => Object.fromEntries(
  (text.match(/^---\n([\s\S]*?)\n---/)?.[1] ?? "").split("\n").filter((l) => l.includes(": "))
    .map((l) => [l.slice(0, l.indexOf(": ")), l.slice(l.indexOf(": ") + 2)]));
const skills = () => fs.readdirSync(root).sort().filter((n) => fs.existsSync(path.join(root, n, "SKILL.md"))).map((n) => ({
  uri: `skill://${n}/SKILL.md`,
  frontmatter: frontmatter(fs.readFileSync(path.join(root, n, "SKILL.md"), "utf8")),
  resources: files(path.join(root, n)).map((f) => {
    const bytes = fs.readFileSync(path.join(root, n, f));
    return { uri: `skill://${n}/${f}`, digest: sha(bytes), size: bytes.length };
  }),
}));

const server = new Server({ name: "sdk-skills", version: "1.0.0" },
  { capabilities: { resources: {}, extensions: { "io.modelcontextprotocol/skills": {} } } });
server.setRequestHandler(z.object({ method: z.literal("skills/list"), params: z.object({ cursor: z.string().optional() }).passthrough().optional() }),
  async () => ({ skills: skills() }));
server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
  const m = req.params.uri.match(/^skill:\/\/([a-z0-9-]+)\/(.+)$/);
  const entry = m && skills().find((s) => s.uri === `skill://${m[1]}/SKILL.md`);
  if (!entry || !entry.resources.some((r) => r.uri === req.params.uri)) throw new Error("not a served resource");
  const bytes = fs.readFileSync(path.join(root, m[1], m[2]));
  const text = bytes.toString("utf8");
  return { contents: [Buffer.from(text, "utf8").equals(bytes) ? { uri: req.params.uri, text } : { uri: req.params.uri, blob: bytes.toString("base64") }] };
});
await server.connect(new StdioServerTransport());
