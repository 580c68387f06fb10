/**
 * A port of Go's `text/template/parse/lex.go` (go1.26): same items, same trimming of `{{- ` / ` -}}`, same
 * error texts, same line counting, so that messages and positions match what GitLab's KAS reports.
 *
 * Differences on purpose: positions are UTF-16 offsets into the JavaScript string (Go counts bytes; the
 * error formatter converts when it prints a Go column), and the whole input is lexed up front — Go's
 * lexer takes no feedback from the parser, so the item sequence is the same.
 */

/** Item kinds, named as in Go (`itemText` → `text`). Keywords come after `keyword`. */
export type ItemType =
  | 'error'
  | 'bool'
  | 'char'
  | 'charConstant'
  | 'comment'
  | 'complex'
  | 'assign'
  | 'declare'
  | 'eof'
  | 'field'
  | 'identifier'
  | 'leftDelim'
  | 'leftParen'
  | 'number'
  | 'pipe'
  | 'rawString'
  | 'rightDelim'
  | 'rightParen'
  | 'space'
  | 'string'
  | 'text'
  | 'variable'
  // Keywords.
  | 'block'
  | 'break'
  | 'continue'
  | 'dot'
  | 'define'
  | 'else'
  | 'end'
  | 'if'
  | 'nil'
  | 'range'
  | 'template'
  | 'with';

/** One lexed item. `pos`/`end` are UTF-16 offsets; `line` is 1-based like Go's. */
export interface Item {
  readonly type: ItemType;
  readonly pos: number;
  readonly end: number;
  readonly val: string;
  readonly line: number;
}

const KEYWORDS: ReadonlyMap<string, ItemType> = new Map<string, ItemType>([
  ['.', 'dot'],
  ['block', 'block'],
  ['break', 'break'],
  ['continue', 'continue'],
  ['define', 'define'],
  ['else', 'else'],
  ['end', 'end'],
  ['if', 'if'],
  ['range', 'range'],
  ['nil', 'nil'],
  ['template', 'template'],
  ['with', 'with'],
]);

const KEYWORD_TYPES: ReadonlySet<ItemType> = new Set(KEYWORDS.values());

/** True for Go's keyword items (printed as `<if>` in parse errors). */
export function isKeyword(type: ItemType): boolean {
  return KEYWORD_TYPES.has(type);
}

const LEFT_DELIM = '{{';
const RIGHT_DELIM = '}}';
const LEFT_COMMENT = '/*';
const RIGHT_COMMENT = '*/';
const SPACE_CHARS = ' \t\r\n';
/** The trim marker plus the space that must sit next to it (Go's trimMarkerLen). */
const TRIM_MARKER_LEN = 2;
const EOF = -1;

/** Go's `isSpace`: only ASCII space, tab, CR, LF. */
function isSpace(r: number): boolean {
  return r === 0x20 || r === 0x09 || r === 0x0d || r === 0x0a;
}

const LETTER_OR_DIGIT = /^[\p{L}\p{Nd}]$/u;

/** Go's `isAlphaNumeric`: `_`, Unicode letters and decimal digits. */
export function isAlphaNumeric(r: number): boolean {
  if (r === 0x5f) return true;
  if (r < 0) return false;
  if (r < 0x80) return (r >= 0x30 && r <= 0x39) || (r >= 0x41 && r <= 0x5a) || (r >= 0x61 && r <= 0x7a);
  return LETTER_OR_DIGIT.test(String.fromCodePoint(r));
}

function hasLeftTrimMarker(s: string, at: number): boolean {
  return s.length - at >= 2 && s[at] === '-' && isSpace(s.charCodeAt(at + 1));
}

function hasRightTrimMarker(s: string, at: number): boolean {
  return s.length - at >= 2 && isSpace(s.charCodeAt(at)) && s[at + 1] === '-';
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

/** Go's `%#U` for the "unrecognized character" and "bad character" errors, e.g. `U+0023 '#'`. */
function goRuneDescription(r: number): string {
  const hex = r.toString(16).toUpperCase().padStart(4, '0');
  const printable = r >= 0x20 && r !== 0x7f && !(r >= 0x80 && r < 0xa0);
  return printable ? `U+${hex} '${String.fromCodePoint(r)}'` : `U+${hex}`;
}

type StateFn = ((l: Lexer) => StateFn) | null;

class Lexer {
  pos = 0;
  start = 0;
  atEOF = false;
  parenDepth = 0;
  line = 1;
  startLine = 1;
  insideAction = false;
  item: Item | null = null;
  /** Where the current action's `{{` starts, so an "unclosed action" error can point at it. */
  actionStart = 0;

  constructor(public input: string) {}

  next(): number {
    if (this.pos >= this.input.length) {
      this.atEOF = true;
      return EOF;
    }
    const r = this.input.codePointAt(this.pos) as number;
    this.pos += r > 0xffff ? 2 : 1;
    if (r === 10) this.line++;
    return r;
  }

  peek(): number {
    const r = this.next();
    this.backup();
    return r;
  }

  backup(): void {
    if (!this.atEOF && this.pos > 0) {
      const low = this.input.charCodeAt(this.pos - 1);
      const pair = low >= 0xdc00 && low <= 0xdfff && this.pos >= 2 && this.input.charCodeAt(this.pos - 2) >= 0xd800 && this.input.charCodeAt(this.pos - 2) <= 0xdbff;
      this.pos -= pair ? 2 : 1;
      if (low === 10) this.line--;
    }
  }

  thisItem(type: ItemType): Item {
    const item: Item = { type, pos: this.start, end: this.pos, val: this.input.slice(this.start, this.pos), line: this.startLine };
    this.start = this.pos;
    this.startLine = this.line;
    return item;
  }

  emit(type: ItemType): StateFn {
    return this.emitItem(this.thisItem(type));
  }

  emitItem(item: Item): StateFn {
    this.item = item;
    return null;
  }

  ignore(): void {
    this.line += countNewlines(this.input, this.start, this.pos);
    this.start = this.pos;
    this.startLine = this.line;
  }

  accept(valid: string): boolean {
    const r = this.next();
    if (r !== EOF && valid.includes(String.fromCodePoint(r))) return true;
    this.backup();
    return false;
  }

  acceptRun(valid: string): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || !valid.includes(String.fromCodePoint(r))) break;
    }
    this.backup();
  }

  /** Ends the scan with an error item covering what was being scanned. */
  errorf(message: string, at?: { pos: number; end: number }): StateFn {
    this.item = { type: 'error', pos: at?.pos ?? this.start, end: at?.end ?? Math.max(this.pos, this.start + 1), val: message, line: this.startLine };
    this.start = 0;
    this.pos = 0;
    this.input = '';
    return null;
  }

  atRightDelim(): { delim: boolean; trimSpaces: boolean } {
    if (hasRightTrimMarker(this.input, this.pos) && this.input.startsWith(RIGHT_DELIM, this.pos + TRIM_MARKER_LEN)) {
      return { delim: true, trimSpaces: true };
    }
    if (this.input.startsWith(RIGHT_DELIM, this.pos)) return { delim: true, trimSpaces: false };
    return { delim: false, trimSpaces: false };
  }

  atTerminator(): boolean {
    const r = this.peek();
    if (isSpace(r)) return true;
    switch (r) {
      case EOF:
      case 0x2e /* . */:
      case 0x2c /* , */:
      case 0x7c /* | */:
      case 0x3a /* : */:
      case 0x29 /* ) */:
      case 0x28 /* ( */:
        return true;
    }
    return this.input.startsWith(RIGHT_DELIM, this.pos);
  }

  nextItem(): Item {
    this.item = { type: 'eof', pos: this.pos, end: this.pos, val: 'EOF', line: this.startLine };
    let state: StateFn = this.insideAction ? lexInsideAction : lexText;
    while (state) state = state(this);
    return this.item;
  }
}

function rightTrimLength(s: string): number {
  let n = 0;
  while (n < s.length && SPACE_CHARS.includes(s[s.length - 1 - n])) n++;
  return n;
}

function leftTrimLength(s: string, from: number): number {
  let i = from;
  while (i < s.length && SPACE_CHARS.includes(s[i])) i++;
  return i - from;
}

function lexText(l: Lexer): StateFn {
  const x = l.input.indexOf(LEFT_DELIM, l.pos);
  if (x >= 0) {
    if (x > l.pos) {
      l.pos = x;
      let trimLength = 0;
      const delimEnd = l.pos + LEFT_DELIM.length;
      if (hasLeftTrimMarker(l.input, delimEnd)) trimLength = rightTrimLength(l.input.slice(l.start, l.pos));
      l.pos -= trimLength;
      l.line += countNewlines(l.input, l.start, l.pos);
      const item = l.thisItem('text');
      l.pos += trimLength;
      l.ignore();
      if (item.val.length > 0) return l.emitItem(item);
    }
    return lexLeftDelim;
  }
  l.pos = l.input.length;
  if (l.pos > l.start) {
    l.line += countNewlines(l.input, l.start, l.pos);
    return l.emit('text');
  }
  return l.emit('eof');
}

function lexLeftDelim(l: Lexer): StateFn {
  l.actionStart = l.pos;
  l.pos += LEFT_DELIM.length;
  const trimSpace = hasLeftTrimMarker(l.input, l.pos);
  const afterMarker = trimSpace ? TRIM_MARKER_LEN : 0;
  if (l.input.startsWith(LEFT_COMMENT, l.pos + afterMarker)) {
    l.pos += afterMarker;
    l.ignore();
    return lexComment;
  }
  const item = l.thisItem('leftDelim');
  l.insideAction = true;
  l.pos += afterMarker;
  l.ignore();
  l.parenDepth = 0;
  return l.emitItem(item);
}

function lexComment(l: Lexer): StateFn {
  l.pos += LEFT_COMMENT.length;
  const x = l.input.indexOf(RIGHT_COMMENT, l.pos);
  const opening = { pos: l.actionStart, end: l.actionStart + LEFT_DELIM.length };
  if (x < 0) return l.errorf('unclosed comment', opening);
  l.pos = x + RIGHT_COMMENT.length;
  const { delim, trimSpaces } = l.atRightDelim();
  if (!delim) return l.errorf('comment ends before closing delimiter', { pos: l.actionStart, end: l.pos });
  l.line += countNewlines(l.input, l.start, l.pos);
  l.thisItem('comment');
  if (trimSpaces) l.pos += TRIM_MARKER_LEN;
  l.pos += RIGHT_DELIM.length;
  if (trimSpaces) l.pos += leftTrimLength(l.input, l.pos);
  l.ignore();
  // Comments are not emitted (Go's default, emitComment=false).
  return lexText;
}

function lexRightDelim(l: Lexer): StateFn {
  const { trimSpaces } = l.atRightDelim();
  if (trimSpaces) {
    l.pos += TRIM_MARKER_LEN;
    l.ignore();
  }
  l.pos += RIGHT_DELIM.length;
  const item = l.thisItem('rightDelim');
  if (trimSpaces) {
    l.pos += leftTrimLength(l.input, l.pos);
    l.ignore();
  }
  l.insideAction = false;
  return l.emitItem(item);
}

function lexInsideAction(l: Lexer): StateFn {
  const { delim } = l.atRightDelim();
  if (delim) {
    if (l.parenDepth === 0) return lexRightDelim;
    return l.errorf('unclosed left paren', { pos: l.pos, end: l.pos + RIGHT_DELIM.length });
  }
  const r = l.next();
  if (r === EOF) return l.errorf('unclosed action', { pos: l.actionStart, end: l.actionStart + LEFT_DELIM.length });
  if (isSpace(r)) {
    l.backup(); // Put the space back in case it starts " -}}".
    return lexSpace;
  }
  switch (r) {
    case 0x3d /* = */:
      return l.emit('assign');
    case 0x3a /* : */:
      if (l.next() !== 0x3d) return l.errorf('expected :=');
      return l.emit('declare');
    case 0x7c /* | */:
      return l.emit('pipe');
    case 0x22 /* " */:
      return lexQuote;
    case 0x60 /* ` */:
      return lexRawQuote;
    case 0x24 /* $ */:
      return lexVariable;
    case 0x27 /* ' */:
      return lexChar;
    case 0x28 /* ( */:
      l.parenDepth++;
      return l.emit('leftParen');
    case 0x29 /* ) */:
      l.parenDepth--;
      if (l.parenDepth < 0) return l.errorf('unexpected right paren');
      return l.emit('rightParen');
  }
  if (r === 0x2e /* . */) {
    // ".field" unless a digit follows, in which case '.' starts a number.
    const c = l.input.charCodeAt(l.pos);
    if (l.pos >= l.input.length || c < 0x30 || c > 0x39) return lexField;
  }
  if (r === 0x2e || r === 0x2b || r === 0x2d || (r >= 0x30 && r <= 0x39)) {
    l.backup();
    return lexNumber;
  }
  if (isAlphaNumeric(r)) {
    l.backup();
    return lexIdentifier;
  }
  if (r < 0x80 && r >= 0x20 && r !== 0x7f) return l.emit('char');
  return l.errorf(`unrecognized character in action: ${goRuneDescription(r)}`);
}

function lexSpace(l: Lexer): StateFn {
  let numSpaces = 0;
  while (isSpace(l.peek())) {
    l.next();
    numSpaces++;
  }
  // A trim-marked closing delimiter starts with a space: leave that space to the delimiter.
  if (hasRightTrimMarker(l.input, l.pos - 1) && l.input.startsWith(RIGHT_DELIM, l.pos - 1 + TRIM_MARKER_LEN)) {
    l.backup();
    if (numSpaces === 1) return lexRightDelim;
  }
  return l.emit('space');
}

function lexIdentifier(l: Lexer): StateFn {
  for (;;) {
    const r = l.next();
    if (isAlphaNumeric(r)) continue;
    l.backup();
    const word = l.input.slice(l.start, l.pos);
    if (!l.atTerminator()) return l.errorf(`bad character ${goRuneDescription(r)}`);
    const keyword = KEYWORDS.get(word);
    if (keyword !== undefined && keyword !== 'dot') {
      // break/continue are keywords only where Go enables them (inside range; the parser checks).
      return l.emit(keyword);
    }
    if (word[0] === '.') return l.emit('field');
    if (word === 'true' || word === 'false') return l.emit('bool');
    return l.emit('identifier');
  }
}

function lexField(l: Lexer): StateFn {
  return lexFieldOrVariable(l, 'field');
}

function lexVariable(l: Lexer): StateFn {
  if (l.atTerminator()) return l.emit('variable');
  return lexFieldOrVariable(l, 'variable');
}

function lexFieldOrVariable(l: Lexer, type: 'field' | 'variable'): StateFn {
  if (l.atTerminator()) return l.emit(type === 'variable' ? 'variable' : 'dot');
  let r: number;
  for (;;) {
    r = l.next();
    if (!isAlphaNumeric(r)) {
      l.backup();
      break;
    }
  }
  if (!l.atTerminator()) return l.errorf(`bad character ${goRuneDescription(r)}`);
  return l.emit(type);
}

function lexChar(l: Lexer): StateFn {
  for (;;) {
    let r = l.next();
    if (r === 0x5c /* \ */) {
      r = l.next();
      if (r !== EOF && r !== 10) continue;
    }
    if (r === EOF || r === 10) return l.errorf('unterminated character constant');
    if (r === 0x27) break;
  }
  return l.emit('charConstant');
}

function lexNumber(l: Lexer): StateFn {
  if (!scanNumber(l)) return l.errorf(`bad number syntax: ${goQuoteForLexer(l.input.slice(l.start, l.pos))}`);
  const sign = l.peek();
  if (sign === 0x2b || sign === 0x2d) {
    // Complex: 1+2i.
    if (!scanNumber(l) || l.input[l.pos - 1] !== 'i') return l.errorf(`bad number syntax: ${goQuoteForLexer(l.input.slice(l.start, l.pos))}`);
    return l.emit('complex');
  }
  return l.emit('number');
}

function scanNumber(l: Lexer): boolean {
  l.accept('+-');
  let digits = '0123456789_';
  if (l.accept('0')) {
    if (l.accept('xX')) digits = '0123456789abcdefABCDEF_';
    else if (l.accept('oO')) digits = '01234567_';
    else if (l.accept('bB')) digits = '01_';
  }
  l.acceptRun(digits);
  if (l.accept('.')) l.acceptRun(digits);
  if (digits.length === 11 && l.accept('eE')) {
    l.accept('+-');
    l.acceptRun('0123456789_');
  }
  if (digits.length === 23 && l.accept('pP')) {
    l.accept('+-');
    l.acceptRun('0123456789_');
  }
  l.accept('i');
  if (isAlphaNumeric(l.peek())) {
    l.next();
    return false;
  }
  return true;
}

function lexQuote(l: Lexer): StateFn {
  for (;;) {
    let r = l.next();
    if (r === 0x5c) {
      r = l.next();
      if (r !== EOF && r !== 10) continue;
    }
    if (r === EOF || r === 10) return l.errorf('unterminated quoted string');
    if (r === 0x22) break;
  }
  return l.emit('string');
}

function lexRawQuote(l: Lexer): StateFn {
  for (;;) {
    const r = l.next();
    if (r === EOF) return l.errorf('unterminated raw quoted string');
    if (r === 0x60) break;
  }
  return l.emit('rawString');
}

/** Minimal `%q` for the lexer's number errors (numbers are ASCII). */
function goQuoteForLexer(s: string): string {
  return JSON.stringify(s);
}

/**
 * Lexes a whole template. The last item is `eof` or `error` (Go stops at the first error).
 */
export function lex(input: string): Item[] {
  const l = new Lexer(input);
  const items: Item[] = [];
  for (;;) {
    const item = l.nextItem();
    items.push(item);
    if (item.type === 'eof' || item.type === 'error') return items;
  }
}
