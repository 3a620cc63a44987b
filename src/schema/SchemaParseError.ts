// The one error type the schema parser throws. Its message mirrors PyTorch's
// (`expected <x> but found '<tok>' here:` + the source line + `~~~ <--- HERE`), and the same
// facts are available as structured fields.

/** Number of context lines printed around a highlighted range (torch::jit::SourceRange::CONTEXT). */
const CONTEXT = 3;

export interface SchemaParseErrorInit {
  /** The schema text being parsed. */
  readonly schema: string;
  /** Offset (UTF-16 code units) of the offending token, or undefined when there is no location. */
  readonly offset?: number | undefined;
  /** End offset (exclusive) of the offending token. */
  readonly end?: number | undefined;
  /** What the parser expected, e.g. `ident`, `)`, `arrow` (for "expected ... but found ..." errors). */
  readonly expected?: string | undefined;
  /** What it found: PyTorch's token-kind name (`ident`, `number`, `eof`, `(`) or the offending character. */
  readonly found?: string | undefined;
  /** Message head (PyTorch's wording) for errors that are not "expected ... but found ...". */
  readonly reason?: string | undefined;
  /** How the head is framed: `expected` (Lexer::expected), `report` (ErrorReport: leading newline,
   * `<reason>:` then the highlight), `check` (TORCH_CHECK-like: the reason alone, no highlight). */
  readonly style?: 'expected' | 'report' | 'lexer' | 'check';
}

/** A schema string that does not parse: the message carries PyTorch's text and the caret line under the bad position. */
export class SchemaParseError extends Error {
  override readonly name = 'SchemaParseError';
  readonly schema: string;
  /** Offset of the offending token in `schema` (UTF-16 code units); -1 if unknown. */
  readonly offset: number;
  /** End offset (exclusive) of the offending token; equals `offset` for EOF. */
  readonly end: number;
  /** 1-based line of `offset`. */
  readonly line: number;
  /** 0-based column of `offset` within its line. */
  readonly column: number;
  readonly expected: string | undefined;
  readonly found: string | undefined;
  /** Short description without location (`expected ident but found 'eof'`, `invalid numeric default value`). */
  readonly reason: string;

  constructor(init: SchemaParseErrorInit) {
    const offset = init.offset ?? -1;
    const end = init.end ?? offset;
    const style = init.style ?? (init.expected !== undefined ? 'expected' : 'report');
    let reason: string;
    let message: string;
    const hl = offset >= 0 ? highlight(init.schema, offset, end) : '';
    if (style === 'expected') {
      reason = `expected ${init.expected ?? '?'} but found '${init.found ?? '?'}'`;
      message = `${reason} here:\n${hl}`;
    } else if (style === 'report') {
      reason = init.reason ?? 'invalid schema';
      message = `\n${reason}:\n${hl}`;
    } else if (style === 'lexer') {
      reason = init.reason ?? 'invalid schema';
      message = `${reason}:\n${hl}`;
    } else {
      reason = init.reason ?? 'invalid schema';
      message = reason;
    }
    super(message);
    this.schema = init.schema;
    this.offset = offset;
    this.end = end;
    this.expected = init.expected;
    this.found = init.found;
    this.reason = reason;
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < offset && i < init.schema.length; i++) {
      if (init.schema.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    this.line = line;
    this.column = offset >= 0 ? offset - lineStart : -1;
  }
}

/**
 * Port of torch::jit::SourceRange::print_with_context(out, CONTEXT, highlight=true, ""):
 * up to three lines of context before and after, the highlighted lines followed by a
 * line of `~` under the range and ` <--- HERE`.
 */
export function highlight(str: string, start: number, end: number): string {
  if (end - start === str.length) return str; // the range is the entire source
  const rangeEnd = Math.min(str.length, end);
  if (start > str.length) return '';
  let beginLine = start;
  while (beginLine > 0 && str.charCodeAt(beginLine - 1) !== 10) --beginLine;
  let endLine = rangeEnd;
  while (endLine < str.length && str.charCodeAt(endLine) !== 10) ++endLine;

  let beginContext = beginLine;
  for (let i = 0; beginContext > 0; --beginContext) {
    if (str.charCodeAt(beginContext - 1) === 10) ++i;
    if (i >= CONTEXT) break;
  }
  let endContext = endLine;
  for (let i = 0; endContext < str.length; ++endContext) {
    if (str.charCodeAt(endContext) === 10) ++i;
    if (i >= CONTEXT) break;
  }

  let out = str.slice(beginContext, start);
  let lineStart = start;
  let lineEnd = start;
  while (lineStart < rangeEnd) {
    while (lineEnd < str.length && str.charCodeAt(lineEnd) !== 10) ++lineEnd;
    const actualLine = str.slice(lineStart, lineEnd + 1);
    out += actualLine;
    if (!actualLine.endsWith('\n')) out += '\n';

    let emptySpace = 0;
    let hlBegin = lineStart;
    let hlEnd = lineStart;
    while (hlBegin > 0 && str.charCodeAt(hlBegin - 1) !== 10) --hlBegin;
    while (hlEnd < rangeEnd && str.charCodeAt(hlEnd) !== 10) ++hlEnd;
    for (let i = hlBegin; i < hlEnd; i++) {
      if (str.charCodeAt(i) === 32 || i < start) emptySpace++;
      else break;
    }
    const hlSpace = hlEnd - hlBegin - emptySpace;
    if (hlSpace > 0) {
      let moreLines = false;
      for (let i = lineEnd; i <= rangeEnd; i++) {
        // past the end C++ reads the terminating NUL, which counts as "more"
        const c = str.charCodeAt(i);
        if (c !== 10 && c !== 32) moreLines = true;
      }
      out += ' '.repeat(emptySpace) + '~'.repeat(hlSpace);
      out += moreLines && lineEnd !== rangeEnd ? '\n' : ' <--- HERE\n';
    }
    ++lineEnd;
    lineStart = lineEnd;
  }
  if (lineEnd <= str.length) {
    const tail = str.slice(lineEnd, endContext);
    out += tail;
    if (tail.length > 0 && !tail.endsWith('\n')) out += '\n';
  }
  return out;
}
