// Rule documentation for "scalelint: Explain rule", read from the resolved
// binary so it always matches the server in use: `scalelint rules --format
// json` lists the rules, `scalelint rules --format markdown` holds every
// rule's section (the source of rules/README.md), and `scalelint explain
// RULE` is the plain-text fallback. Pure logic.

export interface RuleInfo {
  name: string;
  severity: string;
  title: string;
}

/** Parses `scalelint rules --format json`. */
export function parseRules(json: string): RuleInfo[] {
  const data: unknown = JSON.parse(json);
  if (!Array.isArray(data)) {
    throw new Error('scalelint rules --format json: expected an array');
  }
  return data
    .filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && typeof (r as { name?: unknown }).name === 'string')
    .map((r) => ({
      name: String(r.name),
      severity: typeof r.severity === 'string' ? r.severity : '',
      title: typeof r.title === 'string' ? r.title : '',
    }));
}

/**
 * The "## RULE" section of the rules reference, as a document of its own
 * (its heading raised to "#"), or undefined when the rule has none.
 */
export function ruleSection(markdown: string, rule: string): string | undefined {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((l) => l.trim() === `## ${rule}`);
  if (start < 0) {
    return undefined;
  }
  let end = lines.length;
  let fence = false;
  for (let i = start + 1; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i])) {
      fence = !fence;
    }
    if (!fence && /^## /.test(lines[i])) {
      end = i;
      break;
    }
  }
  let inFence = false;
  const body = lines.slice(start, end).map((l) => {
    if (/^\s*(```|~~~)/.test(l)) {
      inFence = !inFence;
    }
    return !inFence && /^#{2,6} /.test(l) ? l.slice(1) : l;
  });
  while (body.length > 0 && body[body.length - 1].trim() === '') {
    body.pop();
  }
  return body.join('\n') + '\n';
}

/**
 * Turns `scalelint explain RULE` text into Markdown: the first line as the
 * title, UPPER-CASE lines as headings, indented blocks under EXAMPLE and USE
 * INSTEAD as YAML code.
 */
export function explainTextToMarkdown(text: string): string {
  const lines = text.replace(/\s+$/, '').split(/\r?\n/);
  const out: string[] = [];
  const trimBlank = () => {
    while (out.length > 0 && out[out.length - 1] === '') {
      out.pop();
    }
  };
  const first = lines.shift() ?? '';
  const m = /^([a-z0-9-]+): (.*)$/.exec(first);
  out.push(...(m ? [`# ${m[1]}`, '', m[2]] : [`# ${first}`]));
  let code = false; // in a section whose indented lines are YAML
  let inFence = false;
  const closeFence = () => {
    if (inFence) {
      trimBlank();
      out.push('```');
      inFence = false;
    }
  };
  for (const line of lines) {
    const h = /^([A-Z][A-Z ]*[A-Z])(\s*\(.*\))?$/.exec(line);
    if (h) {
      closeFence();
      trimBlank();
      code = /^(EXAMPLE|USE INSTEAD)$/.test(h[1]);
      out.push('', `## ${h[1].charAt(0)}${h[1].slice(1).toLowerCase()}${h[2] ?? ''}`, '');
      continue;
    }
    const body = line.replace(/^ {2}/, '');
    if (code && line.trim() !== '' && !inFence) {
      out.push('```yaml');
      inFence = true;
    }
    if (body === '' && out[out.length - 1] === '') {
      continue;
    }
    out.push(body);
  }
  closeFence();
  trimBlank();
  return out.join('\n') + '\n';
}

export interface DiagnosticLike {
  code?: string | number | { value: string | number };
  source?: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

function contains(r: DiagnosticLike['range'], p: { line: number; character: number }): boolean {
  const before = (a: { line: number; character: number }, b: { line: number; character: number }) =>
    a.line < b.line || (a.line === b.line && a.character <= b.character);
  return before(r.start, p) && before(p, r.end);
}

/** The rule of the first scalelint diagnostic under the cursor, if any. */
export function ruleAt(diagnostics: readonly DiagnosticLike[], position: { line: number; character: number }): string | undefined {
  for (const d of diagnostics) {
    if (d.source !== undefined && d.source !== 'scalelint') {
      continue;
    }
    if (!contains(d.range, position)) {
      continue;
    }
    const c = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
    if (c !== undefined) {
      return String(c);
    }
  }
  return undefined;
}
