// Hand-written port of TorchScript's lexer (torch/csrc/jit/frontend/lexer.h) as far as the schema
// parser sees it: the same tokens, the same longest-match rule between identifiers and
// operator/keyword tokens, numbers delimited by C's strtod, Python-style string literals,
// comments, line continuations, and the NEWLINE/INDENT/DEDENT bookkeeping outside brackets.
// It works on char codes; token text is sliced only when the parser asks for it.

import { SchemaParseError } from './SchemaParseError.js';

/** Token kinds >= 256 (single-character tokens are their char code). Values follow lexer.h. */
const TOKEN_NAMES: readonly (readonly [string, string])[] = [
  ['EOF', 'eof'],
  ['WHITESPACE', 'whitespace'],
  ['WHITESPACE_EOF', 'whitespace_eof'],
  ['NUMBER', 'number'],
  ['NEWLINE', 'newline'],
  ['INDENT', 'indent'],
  ['DEDENT', 'dedent'],
  ['DEF', 'def'],
  ['EQUIVALENT', 'equivalent'],
  ['IDENT', 'ident'],
  ['STRING', 'string'],
  ['STRINGLITERAL', 'string_literal'],
  ['CONST', 'const'],
  ['LIST', 'list'],
  ['DICT', 'dict'],
  ['OPTION', 'option'],
  ['APPLY', 'apply'],
  ['COMPREHENSION', 'comprehension'],
  ['RANGE_CONSTRAINT', 'range_constraint'],
  ['PARAM', 'param'],
  ['INFERRED', 'inferred'],
  ['ACCESS', 'access'],
  ['ASSIGN', 'assign'],
  ['AUG_ASSIGN', 'aug_assign'],
  ['ATTRIBUTE', 'attribute'],
  ['IF', 'if'],
  ['ELSE', 'else'],
  ['ELIF', 'elif'],
  ['WHILE', 'while'],
  ['EXPR_STMT', 'expression statement'],
  ['RETURN', 'return'],
  ['IS', 'is'],
  ['ISNOT', 'is not'],
  ['NE', 'ne'],
  ['EQ', 'eq'],
  ['LE', 'le'],
  ['GE', 'ge'],
  ['FLOOR_DIV', 'floordiv'],
  ['IF_EXPR', 'if'],
  ['TRUE', 'True'],
  ['FALSE', 'False'],
  ['NONE', 'None'],
  ['AND', 'and'],
  ['OR', 'or'],
  ['NOT', 'not'],
  ['LSHIFT', '<<'],
  ['RSHIFT', '>>'],
  ['CAST', 'cast'],
  ['PLUS_EQ', '+='],
  ['MINUS_EQ', '-='],
  ['TIMES_EQ', '*='],
  ['DIV_EQ', '/='],
  ['MOD_EQ', '%='],
  ['BIT_OR_EQ', '|='],
  ['BIT_AND_EQ', '&='],
  ['BIT_XOR_EQ', '^='],
  ['LSHIFT_EQ', '<<='],
  ['RSHIFT_EQ', '>>='],
  ['POW_EQ', '**='],
  ['GLOBAL', 'global'],
  ['BUILT_IN', 'built-in'],
  ['SUBSCRIPT', 'subscript'],
  ['VAR', 'variable'],
  ['NOTHING', 'nothing'],
  ['DICT_LITERAL', 'dict-literal'],
  ['LIST_LITERAL', 'list-literal'],
  ['TUPLE_LITERAL', 'tuple-literal'],
  ['FOR', 'for'],
  ['IN', 'in'],
  ['NOTIN', 'not in'],
  ['STARRED', 'starred'],
  ['UNARY_MINUS', 'unary minus'],
  ['POW', 'pow operator'],
  ['ARROW', 'arrow'],
  ['DECL', 'decl'],
  ['SLICE_EXPR', 'slice expr'],
  ['TYPE_COMMENT', 'type comment'],
  ['RAISE', 'raise'],
  ['ASSERT', 'assert'],
  ['DOTS', 'dots'],
  ['LIST_COMP', 'list comprehension'],
  ['DICT_COMP', 'dict comprehension'],
  ['BREAK', 'break'],
  ['CONTINUE', 'continue'],
  ['DELETE', 'del'],
  ['PASS', 'pass'],
  ['CLASS_DEF', 'class'],
  ['IMPORT', 'import'],
  ['WITH', 'with'],
  ['WITH_ITEM', 'withitem'],
  ['AS', 'as'],
  ['PROP', 'property'],
  ['ELLIPSIS', 'Ellipsis'],
  ['NONE_TYPE', 'NoneType'],
];

function kindOf(name: string): number {
  const i = TOKEN_NAMES.findIndex(([n]) => n === name);
  if (i < 0) throw new Error(`unknown token ${name}`);
  return 257 + i;
}

/** Token kinds used by the schema parser. */
export const TK = {
  EOF: kindOf('EOF'),
  WHITESPACE: kindOf('WHITESPACE'),
  WHITESPACE_EOF: kindOf('WHITESPACE_EOF'),
  NUMBER: kindOf('NUMBER'),
  NEWLINE: kindOf('NEWLINE'),
  INDENT: kindOf('INDENT'),
  DEDENT: kindOf('DEDENT'),
  IDENT: kindOf('IDENT'),
  STRINGLITERAL: kindOf('STRINGLITERAL'),
  TRUE: kindOf('TRUE'),
  FALSE: kindOf('FALSE'),
  NONE: kindOf('NONE'),
  ARROW: kindOf('ARROW'),
  DOTS: kindOf('DOTS'),
  NONE_TYPE: kindOf('NONE_TYPE'),
  NOTHING: kindOf('NOTHING'),
} as const;

/** PyTorch's kindToString: single characters print as themselves. */
export function kindToString(kind: number): string {
  if (kind < 256) return String.fromCharCode(kind);
  const entry = TOKEN_NAMES[kind - 257];
  return entry ? entry[1] : `Unknown kind: ${kind}`;
}

// Multi-character tokens with a spelling (third column of TC_FORALL_TOKEN_KINDS).
const SPELLED: readonly (readonly [string, string])[] = [
  ['DEF', 'def'],
  ['EQUIVALENT', '<=>'],
  ['IF', 'if'],
  ['ELSE', 'else'],
  ['ELIF', 'elif'],
  ['WHILE', 'while'],
  ['RETURN', 'return'],
  ['IS', 'is'],
  ['ISNOT', 'is not'],
  ['NE', '!='],
  ['EQ', '=='],
  ['LE', '<='],
  ['GE', '>='],
  ['FLOOR_DIV', '//'],
  ['TRUE', 'True'],
  ['FALSE', 'False'],
  ['NONE', 'None'],
  ['AND', 'and'],
  ['OR', 'or'],
  ['NOT', 'not'],
  ['LSHIFT', '<<'],
  ['RSHIFT', '>>'],
  ['PLUS_EQ', '+='],
  ['MINUS_EQ', '-='],
  ['TIMES_EQ', '*='],
  ['DIV_EQ', '/='],
  ['MOD_EQ', '%='],
  ['BIT_OR_EQ', '|='],
  ['BIT_AND_EQ', '&='],
  ['BIT_XOR_EQ', '^='],
  ['LSHIFT_EQ', '<<='],
  ['RSHIFT_EQ', '>>='],
  ['POW_EQ', '**='],
  ['GLOBAL', 'global'],
  ['FOR', 'for'],
  ['IN', 'in'],
  ['NOTIN', 'not in'],
  ['POW', '**'],
  ['ARROW', '->'],
  ['TYPE_COMMENT', '# type:'],
  ['RAISE', 'raise'],
  ['ASSERT', 'assert'],
  ['DOTS', '...'],
  ['BREAK', 'break'],
  ['CONTINUE', 'continue'],
  ['DELETE', 'del'],
  ['PASS', 'pass'],
  ['CLASS_DEF', 'class'],
  ['IMPORT', 'import'],
  ['WITH', 'with'],
  ['AS', 'as'],
  ['ELLIPSIS', 'Ellipsis'],
  ['NONE_TYPE', 'NoneType'],
];
const SINGLE_CHAR_TOKENS = '+-*/%@()[]:,={}><.?!&^|~';

interface TrieNode {
  kind: number;
  readonly children: Map<number, TrieNode>;
}

const TRIE: TrieNode = (() => {
  const root: TrieNode = { kind: 0, children: new Map() };
  const insert = (str: string, kind: number): void => {
    let node = root;
    for (let i = 0; i < str.length; i++) {
      const c = str.charCodeAt(i);
      let child = node.children.get(c);
      if (!child) {
        child = { kind: 0, children: new Map() };
        node.children.set(c, child);
      }
      node = child;
    }
    node.kind = kind;
  };
  for (let i = 0; i < SINGLE_CHAR_TOKENS.length; i++) {
    insert(SINGLE_CHAR_TOKENS[i]!, SINGLE_CHAR_TOKENS.charCodeAt(i));
  }
  for (const [name, spelling] of SPELLED) insert(spelling, kindOf(name));
  return root;
})();

/**
 * Whether the lexer reads all of `word` as one IDENT token: an identifier that is not a keyword (`def`,
 * `None`, `and`, ...: the lexer's longest match gives a keyword the tie).
 */
export function isIdentifierToken(word: string): boolean {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(word)) return false;
  let node: TrieNode | undefined = TRIE;
  for (let i = 0; i < word.length && node !== undefined; i++) node = node.children.get(word.charCodeAt(i));
  return node === undefined || node.kind === 0;
}

// ---- character classes (C locale) ----
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isAlpha = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isHex = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
/** isspace(c) && c != '\n' */
const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 11 || c === 12 || c === 13;

/**
 * Length of the longest prefix of `s` at `i` that C's strtod (glibc, C locale) would consume,
 * not counting a leading sign (the lexer never starts a number with one). 0 when none.
 */
export function strtodPrefixLength(s: string, i: number): number {
  // charCodeAt past the end is NaN, which fails every class test below
  const at = s;
  let p = i;
  if (at.charCodeAt(p) === 48 && (at.charCodeAt(p + 1) === 120 || at.charCodeAt(p + 1) === 88)) {
    let q = p + 2;
    let digits = 0;
    while (isHex(at.charCodeAt(q))) {
      q++;
      digits++;
    }
    if (at.charCodeAt(q) === 46) {
      let q2 = q + 1;
      let d2 = 0;
      while (isHex(at.charCodeAt(q2))) {
        q2++;
        d2++;
      }
      if (digits + d2 > 0) {
        q = q2;
        digits += d2;
      }
    }
    if (digits > 0) {
      if (at.charCodeAt(q) === 112 || at.charCodeAt(q) === 80) {
        let r = q + 1;
        if (at.charCodeAt(r) === 43 || at.charCodeAt(r) === 45) r++;
        if (isDigit(at.charCodeAt(r))) {
          while (isDigit(at.charCodeAt(r))) r++;
          q = r;
        }
      }
      return q - i;
    }
    // "0x" not followed by hex digits: strtod reads just the "0"
  }
  let digits = 0;
  while (isDigit(at.charCodeAt(p))) {
    p++;
    digits++;
  }
  if (at.charCodeAt(p) === 46) {
    p++;
    while (isDigit(at.charCodeAt(p))) {
      p++;
      digits++;
    }
  }
  if (digits === 0) return 0;
  if (at.charCodeAt(p) === 101 || at.charCodeAt(p) === 69) {
    let r = p + 1;
    if (at.charCodeAt(r) === 43 || at.charCodeAt(r) === 45) r++;
    if (isDigit(at.charCodeAt(r))) {
      while (isDigit(at.charCodeAt(r))) r++;
      p = r;
    }
  }
  return p - i;
}

export interface Token {
  readonly kind: number;
  readonly start: number;
  readonly end: number;
}

export class Lexer {
  readonly src: string;
  private pos = 0;
  private nesting = 0;
  private readonly indentStack: number[] = [];
  /** Token queue: tokens[head] is the current token. */
  private readonly tokens: Token[] = [];
  private head = 0;

  constructor(src: string) {
    this.src = src;
    const first = this.lexRaw(true);
    this.indentStack.push(first.end - first.start);
    this.lex();
  }

  cur(): Token {
    return this.tokens[this.head]!;
  }

  /** Returns the current token and advances (lexing the next one right away, as PyTorch does). */
  next(): Token {
    const r = this.tokens[this.head++]!;
    if (this.head === this.tokens.length) this.lex();
    return r;
  }

  nextIf(kind: number): boolean {
    if (this.tokens[this.head]!.kind !== kind) return false;
    this.next();
    return true;
  }

  expect(kind: number): Token {
    if (this.tokens[this.head]!.kind !== kind) this.expected(kindToString(kind));
    return this.next();
  }

  lookahead(): Token {
    if (this.tokens.length - this.head < 2) this.lex();
    return this.tokens[this.head + 1]!;
  }

  text(t: Token): string {
    return this.src.slice(t.start, t.end);
  }

  expected(what: string, t: Token = this.cur()): never {
    throw new SchemaParseError({
      schema: this.src,
      offset: t.start,
      end: t.end,
      expected: what,
      found: kindToString(t.kind),
    });
  }

  /** ErrorReport(range) << reason */
  report(reason: string, start: number, end: number): never {
    throw new SchemaParseError({ schema: this.src, offset: start, end, reason, style: 'report' });
  }

  private lex(): void {
    const r = this.lexRaw(false);
    switch (r.kind) {
      case 40: // (
      case 91: // [
      case 123: // {
        this.nesting++;
        break;
      case 41: // )
      case 93: // ]
      case 125: // }
        this.nesting--;
        break;
      case TK.WHITESPACE:
      case TK.WHITESPACE_EOF: {
        const depth = r.kind === TK.WHITESPACE_EOF ? this.indentStack[0]! : r.end - r.start;
        const top = this.indentStack[this.indentStack.length - 1]!;
        if (depth > top) {
          this.indentStack.push(depth);
          this.tokens.push({ kind: TK.INDENT, start: r.start, end: r.end });
        } else if (depth === top) {
          this.tokens.push({ kind: TK.NEWLINE, start: r.start, end: r.end });
        } else {
          this.tokens.push({ kind: TK.NEWLINE, start: r.start, end: r.end });
          while (this.indentStack[this.indentStack.length - 1] !== depth) {
            this.indentStack.pop();
            this.tokens.push({ kind: TK.DEDENT, start: r.start, end: r.end });
            if (this.indentStack.length === 0) {
              throw new SchemaParseError({
                schema: this.src,
                offset: r.start,
                end: r.end,
                reason: `invalid indent level ${depth}`,
                style: 'lexer',
              });
            }
          }
        }
        return;
      }
      default:
        break;
    }
    this.tokens.push(r);
  }

  private lexRaw(whitespaceToken: boolean): Token {
    const s = this.src;
    const n = s.length;
    const lexStart = this.pos;
    const continuation = this.nesting > 0;
    let pos = this.pos;
    let start: number;
    for (;;) {
      start = pos;
      while (pos < n && isBlank(s.charCodeAt(pos))) pos++;
      if (pos < n) {
        const c = s.charCodeAt(pos);
        if (c === 35 && !s.startsWith('# type:', pos)) {
          // comment: skip to the end of the line
          while (pos < n && s.charCodeAt(pos) !== 10) pos++;
          continue;
        }
        if (c === 92 && pos + 1 < n && s.charCodeAt(pos + 1) === 10 && !whitespaceToken) {
          pos += 2; // line continuation
          whitespaceToken = false;
          continue;
        }
        if (c === 10) {
          pos++;
          whitespaceToken = !continuation;
          continue;
        }
      }
      break;
    }
    if (whitespaceToken) {
      this.pos = pos;
      return { kind: pos >= n ? TK.WHITESPACE_EOF : TK.WHITESPACE, start, end: pos };
    }
    if (pos >= n) {
      this.pos = pos;
      return { kind: TK.EOF, start: pos, end: pos };
    }
    start = pos;
    const c0 = s.charCodeAt(pos);
    // number
    if (c0 !== 45 && c0 !== 43 && !isAlpha(c0)) {
      let len = strtodPrefixLength(s, pos);
      if (len > 0) {
        if (pos + len < n && s.charCodeAt(pos + len) === 106) len++; // complex 'j'
        this.pos = pos + len;
        return { kind: TK.NUMBER, start, end: pos + len };
      }
    }
    // string literal
    if (c0 === 34 || c0 === 39) {
      const end = this.stringEnd(pos, c0);
      if (end > 0) {
        this.pos = end;
        return { kind: TK.STRINGLITERAL, start, end };
      }
    }
    // identifier or operator/keyword: longest match, the token winning ties
    let identLen = 0;
    if (isAlpha(c0) || c0 === 95) {
      identLen = 1;
      for (let k = pos + 1; k < n; k++) {
        const c = s.charCodeAt(k);
        if (isAlpha(c) || c === 95 || isDigit(c)) identLen++;
        else break;
      }
    }
    let trieLen = 0;
    let trieKind = 0;
    let node: TrieNode | undefined = TRIE;
    for (let k = pos; k < n && node; k++) {
      node = node.children.get(s.charCodeAt(k));
      if (node && node.kind !== 0) {
        trieLen = k - pos + 1;
        trieKind = node.kind;
      }
    }
    if (trieLen > 0 && trieLen >= identLen) {
      this.pos = pos + trieLen;
      return { kind: trieKind, start, end: pos + trieLen };
    }
    if (identLen > 0) {
      this.pos = pos + identLen;
      return { kind: TK.IDENT, start, end: pos + identLen };
    }
    throw new SchemaParseError({
      schema: s,
      offset: start,
      end: start + 1,
      expected: 'a valid token',
      found: s[lexStart] ?? '',
    });
  }

  /** End offset of a string literal starting at `start` with quote `q`, or 0 if it is not one. */
  private stringEnd(start: number, q: number): number {
    const s = this.src;
    const n = s.length;
    const triple = start + 3 <= n && s.charCodeAt(start + 1) === q && s.charCodeAt(start + 2) === q;
    const quoteLen = triple ? 3 : 1;
    let end = start + quoteLen;
    for (;;) {
      if (end >= n) break;
      if (s.charCodeAt(end) === q) {
        if (!triple) break;
        if (end + 3 <= n && s.charCodeAt(end + 1) === q && s.charCodeAt(end + 2) === q) break;
      }
      const c = s.charCodeAt(end);
      if (c === 10 && !triple) return 0;
      if (c === 92) end++;
      end++;
    }
    return end < n ? end + quoteLen : 0;
  }
}
