// Claude Code's frontmatter reading (as its published design describes it), run by JavaScript's own regular-expression engine,
// as the reference for skillmd's `line_parser` (bug for bug). Written from that design's
// description: the block regex `^---\s*\n([\s\S]*?)---\s*\n?`, lines split at their
// first colon, key and value trimmed, one quote dropped from each end of the value.
//
// usage: node claude_code_line_parser.mjs SKILLMD_BINARY CORPUS_DIR
// Runs `skillmd parse --parser line` over every SKILL.md and compares frontmatter
// and body offset file by file. Prints "N passed, N failed".
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [skillmd, root] = process.argv.slice(2);

function walk(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) walk(p, out);
    else if (name === 'SKILL.md') out.push(p);
  }
  return out;
}

function reference(file) {
  const text = readFileSync(file, 'utf-8');
  const m = text.match(/^---\s*\n([\s\S]*?)---\s*\n?/);
  if (!m) return { frontmatter: null, body_offset: 0 };
  const fm = {};
  for (const line of (m[1] || '').split('\n')) {
    const i = line.indexOf(':');
    if (i > 0) {
      const key = line.slice(0, i).trim();
      const value = line.slice(i + 1).trim();
      if (key) fm[key] = value.replace(/^["']|["']$/g, '');
    }
  }
  return { frontmatter: fm, body_offset: Buffer.byteLength(m[0]) };
}

const files = walk(root, []);
// Claude Code reads a file of any size; skillmd's bound is raised for the comparison.
const lines = execFileSync(skillmd, ['parse', '--parser', 'line', '--max-bytes', '16777216', ...files], { maxBuffer: 1 << 28 })
  .toString('utf-8').split('\n').filter(Boolean);
let passed = 0, failed = 0;
files.forEach((file, k) => {
  const ours = JSON.parse(lines[k]);
  const ref = reference(file);
  const same = ours.file === file &&
    JSON.stringify(ours.frontmatter ?? (ref.frontmatter && Object.keys(ref.frontmatter).length === 0 ? {} : null)) ===
      JSON.stringify(ref.frontmatter) &&
    ours.body_offset === ref.body_offset;
  if (same) ++passed;
  else {
    ++failed;
    console.log(`DIFFERENT ${file}\n  ours: ${JSON.stringify(ours)}\n  ref:  ${JSON.stringify(ref)}`);
  }
});
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
