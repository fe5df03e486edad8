// A fake `vscode` module: enough of the VS Code API for the extension and
// for the real vscode-languageclient to run in plain Node, with a `host`
// that plays the editor (opens and edits documents, changes settings,
// records messages, commands, providers and diagnostics).
//
//   const { install } = require('./fake-vscode');
//   const { vscode, host } = install();   // before anything requires 'vscode'
//
// The module object carries __esModule: true, so TypeScript's
// __importStar hands it over as is (classes and all) instead of copying it.
'use strict';

const Module = require('node:module');
const path = require('node:path');
const { pathToFileURL, fileURLToPath } = require('node:url');

function createFakeVscode(options = {}) {
  // ---- events and disposables ----------------------------------------
  class Disposable {
    constructor(fn) {
      this._fn = fn;
    }
    static from(...items) {
      return new Disposable(() => {
        for (const d of items) {
          if (d && typeof d.dispose === 'function') d.dispose();
        }
      });
    }
    dispose() {
      if (this._fn) {
        const fn = this._fn;
        this._fn = undefined;
        fn();
      }
    }
  }

  class EventEmitter {
    constructor() {
      this._listeners = new Set();
      this.event = (listener, thisArg, disposables) => {
        const entry = { listener, thisArg };
        this._listeners.add(entry);
        const d = new Disposable(() => this._listeners.delete(entry));
        if (Array.isArray(disposables)) disposables.push(d);
        return d;
      };
    }
    fire(value) {
      for (const { listener, thisArg } of [...this._listeners]) {
        try {
          listener.call(thisArg, value);
        } catch (e) {
          host.listenerErrors.push(e);
        }
      }
    }
    dispose() {
      this._listeners.clear();
    }
  }

  class CancellationTokenSource {
    constructor() {
      const emitter = new EventEmitter();
      let cancelled = false;
      this._emitter = emitter;
      this.token = {
        get isCancellationRequested() {
          return cancelled;
        },
        onCancellationRequested: emitter.event,
      };
      this._cancel = () => {
        if (!cancelled) {
          cancelled = true;
          emitter.fire(undefined);
        }
      };
    }
    cancel() {
      this._cancel();
    }
    dispose() {
      this._emitter.dispose();
    }
  }

  class CancellationError extends Error {
    constructor() {
      super('Canceled');
      this.name = 'Canceled';
    }
  }

  // ---- Uri --------------------------------------------------------------
  const URI_RE = /^(([^:/?#]+?):)?(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?/;
  class Uri {
    constructor(scheme, authority, p, query, fragment) {
      this.scheme = scheme;
      this.authority = authority || '';
      this.path = p || '';
      this.query = query || '';
      this.fragment = fragment || '';
    }
    static parse(value) {
      const m = URI_RE.exec(value);
      if (!m) throw new Error(`bad uri ${value}`);
      const dec = (s) => {
        try {
          return decodeURIComponent(s || '');
        } catch {
          return s || '';
        }
      };
      return new Uri(m[2] || 'file', dec(m[4]), dec(m[5]), dec(m[7]), dec(m[9]));
    }
    static file(p) {
      return new Uri('file', '', path.resolve(p));
    }
    static from(c) {
      return new Uri(c.scheme, c.authority, c.path, c.query, c.fragment);
    }
    static joinPath(base, ...parts) {
      return base.with({ path: path.posix.join(base.path, ...parts) });
    }
    get fsPath() {
      return this.scheme === 'file' ? path.normalize(this.path) : this.path;
    }
    with(change) {
      return new Uri(
        change.scheme ?? this.scheme,
        change.authority ?? this.authority,
        change.path ?? this.path,
        change.query ?? this.query,
        change.fragment ?? this.fragment,
      );
    }
    toString() {
      if (this.scheme === 'file' && !this.authority && !this.query && !this.fragment) {
        return pathToFileURL(this.path).href;
      }
      let s = `${this.scheme}:`;
      if (this.authority || this.scheme === 'file' || this.scheme === 'http' || this.scheme === 'https') {
        s += `//${this.authority}`;
      }
      s += encodeURI(this.path);
      if (this.query) s += `?${this.query}`;
      if (this.fragment) s += `#${encodeURIComponent(this.fragment)}`;
      return s;
    }
    toJSON() {
      return { $mid: 1, scheme: this.scheme, authority: this.authority, path: this.path, query: this.query, fragment: this.fragment };
    }
  }

  // ---- positions and ranges --------------------------------------------
  class Position {
    constructor(line, character) {
      this.line = line;
      this.character = character;
    }
    isBefore(o) {
      return this.line < o.line || (this.line === o.line && this.character < o.character);
    }
    isBeforeOrEqual(o) {
      return this.isBefore(o) || this.isEqual(o);
    }
    isAfter(o) {
      return !this.isBeforeOrEqual(o);
    }
    isAfterOrEqual(o) {
      return !this.isBefore(o);
    }
    isEqual(o) {
      return this.line === o.line && this.character === o.character;
    }
    compareTo(o) {
      return this.isBefore(o) ? -1 : this.isEqual(o) ? 0 : 1;
    }
    translate(lineDelta = 0, characterDelta = 0) {
      if (typeof lineDelta === 'object') {
        return new Position(this.line + (lineDelta.lineDelta || 0), this.character + (lineDelta.characterDelta || 0));
      }
      return new Position(this.line + lineDelta, this.character + characterDelta);
    }
    with(line = this.line, character = this.character) {
      if (typeof line === 'object') {
        return new Position(line.line ?? this.line, line.character ?? this.character);
      }
      return new Position(line, character);
    }
  }

  class Range {
    constructor(a, b, c, d) {
      if (typeof a === 'number') {
        this.start = new Position(a, b);
        this.end = new Position(c, d);
      } else {
        this.start = a;
        this.end = b;
      }
      if (this.end.isBefore(this.start)) {
        [this.start, this.end] = [this.end, this.start];
      }
    }
    get isEmpty() {
      return this.start.isEqual(this.end);
    }
    get isSingleLine() {
      return this.start.line === this.end.line;
    }
    contains(x) {
      if (x instanceof Range) return this.contains(x.start) && this.contains(x.end);
      return this.start.isBeforeOrEqual(x) && x.isBeforeOrEqual(this.end);
    }
    isEqual(o) {
      return this.start.isEqual(o.start) && this.end.isEqual(o.end);
    }
    intersection(o) {
      const start = this.start.isAfter(o.start) ? this.start : o.start;
      const end = this.end.isBefore(o.end) ? this.end : o.end;
      return start.isAfter(end) ? undefined : new Range(start, end);
    }
    union(o) {
      return new Range(this.start.isBefore(o.start) ? this.start : o.start, this.end.isAfter(o.end) ? this.end : o.end);
    }
    with(start = this.start, end = this.end) {
      if (start && !(start instanceof Position) && typeof start === 'object') {
        return new Range(start.start ?? this.start, start.end ?? this.end);
      }
      return new Range(start, end);
    }
  }

  class Selection extends Range {
    constructor(anchor, active, c, d) {
      if (typeof anchor === 'number') {
        super(anchor, active, c, d);
        this.anchor = new Position(anchor, active);
        this.active = new Position(c, d);
      } else {
        super(anchor, active);
        this.anchor = anchor;
        this.active = active;
      }
    }
    get isReversed() {
      return this.anchor.isAfter(this.active);
    }
  }

  class Location {
    constructor(uri, rangeOrPosition) {
      this.uri = uri;
      this.range = rangeOrPosition instanceof Position ? new Range(rangeOrPosition, rangeOrPosition) : rangeOrPosition;
    }
  }

  // ---- language features' value types ----------------------------------
  const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 };
  const DiagnosticTag = { Unnecessary: 1, Deprecated: 2 };
  class Diagnostic {
    constructor(range, message, severity = DiagnosticSeverity.Error) {
      this.range = range;
      this.message = message;
      this.severity = severity;
    }
  }
  class DiagnosticRelatedInformation {
    constructor(location, message) {
      this.location = location;
      this.message = message;
    }
  }

  class MarkdownString {
    constructor(value = '', supportThemeIcons = false) {
      this.value = value;
      this.supportThemeIcons = supportThemeIcons;
    }
    appendText(v) {
      this.value += v.replace(/[\\`*_{}[\]()#+\-.!]/g, '\\$&');
      return this;
    }
    appendMarkdown(v) {
      this.value += v;
      return this;
    }
    appendCodeblock(code, lang = '') {
      this.value += `\n\`\`\`${lang}\n${code}\n\`\`\`\n`;
      return this;
    }
  }

  class Hover {
    constructor(contents, range) {
      this.contents = Array.isArray(contents) ? contents : [contents];
      this.range = range;
    }
  }

  class CodeActionKind {
    constructor(value) {
      this.value = value;
    }
    append(part) {
      return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
    }
    contains(other) {
      return this.value === '' || other.value === this.value || other.value.startsWith(`${this.value}.`);
    }
    intersects(other) {
      return this.contains(other) || other.contains(this);
    }
  }
  CodeActionKind.Empty = new CodeActionKind('');
  CodeActionKind.QuickFix = new CodeActionKind('quickfix');
  CodeActionKind.Refactor = new CodeActionKind('refactor');
  CodeActionKind.RefactorExtract = new CodeActionKind('refactor.extract');
  CodeActionKind.RefactorInline = new CodeActionKind('refactor.inline');
  CodeActionKind.RefactorMove = new CodeActionKind('refactor.move');
  CodeActionKind.RefactorRewrite = new CodeActionKind('refactor.rewrite');
  CodeActionKind.Source = new CodeActionKind('source');
  CodeActionKind.SourceOrganizeImports = new CodeActionKind('source.organizeImports');
  CodeActionKind.SourceFixAll = new CodeActionKind('source.fixAll');
  CodeActionKind.Notebook = new CodeActionKind('notebook');

  class CodeAction {
    constructor(title, kind) {
      this.title = title;
      this.kind = kind;
    }
  }
  const CodeActionTriggerKind = { Invoke: 1, Automatic: 2 };

  class TextEdit {
    constructor(range, newText) {
      this.range = range;
      this.newText = newText;
    }
    static replace(range, newText) {
      return new TextEdit(range, newText);
    }
    static insert(position, newText) {
      return new TextEdit(new Range(position, position), newText);
    }
    static delete(range) {
      return new TextEdit(range, '');
    }
  }
  class SnippetString {
    constructor(value = '') {
      this.value = value;
    }
  }
  class SnippetTextEdit {
    constructor(range, snippet) {
      this.range = range;
      this.snippet = snippet;
    }
  }

  class WorkspaceEdit {
    constructor() {
      this._entries = [];
    }
    get size() {
      return new Set(this._entries.filter((e) => e.uri).map((e) => e.uri.toString())).size;
    }
    set(uri, edits) {
      this._entries = this._entries.filter((e) => !(e.kind === 'text' && e.uri.toString() === uri.toString()));
      for (const e of edits || []) {
        const [edit] = Array.isArray(e) ? e : [e];
        this._entries.push({ kind: 'text', uri, edit });
      }
    }
    replace(uri, range, newText) {
      this._entries.push({ kind: 'text', uri, edit: new TextEdit(range, newText) });
    }
    insert(uri, position, newText) {
      this.replace(uri, new Range(position, position), newText);
    }
    delete(uri, range) {
      this.replace(uri, range, '');
    }
    has(uri) {
      return this._entries.some((e) => e.uri && e.uri.toString() === uri.toString());
    }
    get(uri) {
      return this._entries.filter((e) => e.kind === 'text' && e.uri.toString() === uri.toString()).map((e) => e.edit);
    }
    entries() {
      const map = new Map();
      for (const e of this._entries) {
        if (e.kind !== 'text') continue;
        const k = e.uri.toString();
        if (!map.has(k)) map.set(k, [e.uri, []]);
        map.get(k)[1].push(e.edit);
      }
      return [...map.values()];
    }
    createFile(uri, options) {
      this._entries.push({ kind: 'create', uri, options });
    }
    deleteFile(uri, options) {
      this._entries.push({ kind: 'delete', uri, options });
    }
    renameFile(oldUri, newUri, options) {
      this._entries.push({ kind: 'rename', uri: oldUri, newUri, options });
    }
  }

  class Command {}
  class ThemeColor {
    constructor(id) {
      this.id = id;
    }
  }
  class ThemeIcon {
    constructor(id, color) {
      this.id = id;
      this.color = color;
    }
  }
  class CompletionItem {
    constructor(label, kind) {
      this.label = label;
      this.kind = kind;
    }
  }
  class CompletionList {
    constructor(items = [], isIncomplete = false) {
      this.items = items;
      this.isIncomplete = isIncomplete;
    }
  }
  class InlayHint {
    constructor(position, label, kind) {
      this.position = position;
      this.label = label;
      this.kind = kind;
    }
  }
  class InlayHintLabelPart {
    constructor(value) {
      this.value = value;
    }
  }
  // Value classes the client subclasses or builds; their fields as given.
  class CodeLens {
    constructor(range, command) {
      this.range = range;
      this.command = command;
    }
  }
  class DocumentLink {
    constructor(range, target) {
      this.range = range;
      this.target = target;
    }
  }
  class SymbolInformation {
    constructor(name, kind, containerName, location) {
      Object.assign(this, { name, kind, containerName, location });
    }
  }
  class CallHierarchyItem {
    constructor(kind, name, detail, uri, range, selectionRange) {
      Object.assign(this, { kind, name, detail, uri, range, selectionRange });
    }
  }
  class TypeHierarchyItem {
    constructor(kind, name, detail, uri, range, selectionRange) {
      Object.assign(this, { kind, name, detail, uri, range, selectionRange });
    }
  }
  class TabInputText {
    constructor(uri) {
      this.uri = uri;
    }
  }
  class TabInputTextDiff {
    constructor(original, modified) {
      this.original = original;
      this.modified = modified;
    }
  }
  class TabInputCustom {
    constructor(uri, viewType) {
      this.uri = uri;
      this.viewType = viewType;
    }
  }
  class TabInputNotebook {
    constructor(uri, notebookType) {
      this.uri = uri;
      this.notebookType = notebookType;
    }
  }

  // ---- text documents ----------------------------------------------------
  class FakeTextDocument {
    constructor(uri, languageId, text, version = 1) {
      this.uri = uri;
      this.languageId = languageId;
      this._text = text;
      this.version = version;
      this.isDirty = false;
      this.isClosed = false;
      this.isUntitled = uri.scheme === 'untitled';
      this.eol = 1;
      this.encoding = 'utf8';
      this.notebook = undefined;
    }
    get fileName() {
      return this.uri.fsPath;
    }
    get lineCount() {
      return this._text.split('\n').length;
    }
    getText(range) {
      if (!range) return this._text;
      return this._text.slice(this.offsetAt(range.start), this.offsetAt(range.end));
    }
    offsetAt(pos) {
      const lines = this._text.split('\n');
      let off = 0;
      const line = Math.min(pos.line, lines.length - 1);
      for (let i = 0; i < line; i++) off += lines[i].length + 1;
      return off + Math.min(pos.character, lines[line].length);
    }
    positionAt(offset) {
      const before = this._text.slice(0, Math.max(0, Math.min(offset, this._text.length))).split('\n');
      return new Position(before.length - 1, before[before.length - 1].length);
    }
    lineAt(lineOrPos) {
      const line = typeof lineOrPos === 'number' ? lineOrPos : lineOrPos.line;
      const text = this._text.split('\n')[line] ?? '';
      return {
        lineNumber: line,
        text,
        range: new Range(line, 0, line, text.length),
        rangeIncludingLineBreak: new Range(line, 0, line + 1, 0),
        firstNonWhitespaceCharacterIndex: text.length - text.trimStart().length,
        isEmptyOrWhitespace: text.trim() === '',
      };
    }
    validatePosition(p) {
      return this.positionAt(this.offsetAt(p));
    }
    validateRange(r) {
      return new Range(this.validatePosition(r.start), this.validatePosition(r.end));
    }
    getWordRangeAtPosition(p, re = /[\w.-]+/g) {
      const text = this.lineAt(p.line).text;
      const g = new RegExp(re.source, 'g');
      let m;
      while ((m = g.exec(text))) {
        if (m.index <= p.character && p.character <= m.index + m[0].length) {
          return new Range(p.line, m.index, p.line, m.index + m[0].length);
        }
        if (m[0].length === 0) g.lastIndex++;
      }
      return undefined;
    }
    save() {
      this.isDirty = false;
      host._emitters.didSave.fire(this);
      return Promise.resolve(true);
    }
  }

  // ---- configuration -----------------------------------------------------
  const settings = options.settings ? JSON.parse(JSON.stringify(options.settings)) : {};
  function lookup(key) {
    const parts = key.split('.');
    let cur = settings;
    for (const p of parts) {
      if (cur === undefined || cur === null || typeof cur !== 'object' || !(p in cur)) return undefined;
      cur = cur[p];
    }
    return cur;
  }
  function getConfiguration(section, _scope) {
    const full = (k) => (section ? `${section}.${k}` : k);
    const cfg = {
      get(key, defaultValue) {
        const v = lookup(full(key));
        return v === undefined ? defaultValue : JSON.parse(JSON.stringify(v));
      },
      has(key) {
        return lookup(full(key)) !== undefined;
      },
      inspect(key) {
        return { key: full(key), globalValue: lookup(full(key)) };
      },
      update(key, value) {
        host.setSetting(full(key), value);
        return Promise.resolve();
      },
    };
    const base = section ? lookup(section) : settings;
    if (base && typeof base === 'object') {
      for (const k of Object.keys(base)) {
        if (!(k in cfg)) cfg[k] = JSON.parse(JSON.stringify(base[k]));
      }
    }
    return Object.freeze(cfg);
  }

  // ---- the host: the editor's side ---------------------------------------
  const emitter = () => new EventEmitter();
  const host = {
    _emitters: {
      didOpen: emitter(),
      didClose: emitter(),
      didChange: emitter(),
      willSave: emitter(),
      didSave: emitter(),
      didChangeConfiguration: emitter(),
      didChangeWorkspaceFolders: emitter(),
      didChangeActiveEditor: emitter(),
      didChangeVisibleEditors: emitter(),
      didChangeTabs: emitter(),
      didChangeTabGroups: emitter(),
      didChangeDiagnostics: emitter(),
    },
    settings,
    documents: [],
    commands: new Map(),
    executed: [],
    providers: {},
    collections: [],
    messages: [],
    statusBarItems: [],
    outputChannels: [],
    quickPicks: [],
    quickPickAnswer: (items) => items[0],
    messageAnswer: () => undefined,
    contentProviders: new Map(),
    shownDocuments: [],
    clipboard: '',
    listenerErrors: [],
    tabs: [],
    activeEditor: undefined,
    workspaceFolders: options.workspaceFolders
      ? options.workspaceFolders.map((f, index) => ({ uri: Uri.file(f), name: path.basename(f), index }))
      : undefined,

    /** Opens a document as the user would: in a tab, visible, active. */
    openDocument(file, text, languageId = 'yaml') {
      const uri = file instanceof Uri ? file : Uri.file(file);
      const doc = new FakeTextDocument(uri, languageId, text);
      host.documents.push(doc);
      const tab = { input: new TabInputText(uri), label: path.basename(uri.path), isActive: true, isDirty: false, isPinned: false, isPreview: false };
      host.tabs.push(tab);
      host._emitters.didChangeTabs.fire({ opened: [tab], closed: [], changed: [] });
      host._emitters.didOpen.fire(doc);
      host.activeEditor = {
        document: doc,
        selection: new Selection(0, 0, 0, 0),
        selections: [new Selection(0, 0, 0, 0)],
        visibleRanges: [new Range(0, 0, doc.lineCount, 0)],
        options: {},
        viewColumn: 1,
      };
      host._emitters.didChangeVisibleEditors.fire(vscode.window.visibleTextEditors);
      host._emitters.didChangeActiveEditor.fire(host.activeEditor);
      return doc;
    },

    /** Applies edits (sorted back to front) to a document, as typing would. */
    editDocument(doc, edits) {
      const sorted = [...edits].sort((a, b) => doc.offsetAt(b.range.start) - doc.offsetAt(a.range.start));
      const contentChanges = [];
      for (const e of sorted) {
        const start = doc.offsetAt(e.range.start);
        const end = doc.offsetAt(e.range.end);
        contentChanges.push({ range: e.range, rangeOffset: start, rangeLength: end - start, text: e.newText });
        doc._text = doc._text.slice(0, start) + e.newText + doc._text.slice(end);
      }
      doc.version++;
      doc.isDirty = true;
      host._emitters.didChange.fire({ document: doc, contentChanges, reason: undefined });
    },

    /** Applies a WorkspaceEdit to the open documents. */
    applyWorkspaceEdit(edit) {
      for (const [uri, edits] of edit.entries()) {
        const doc = host.documents.find((d) => d.uri.toString() === uri.toString());
        if (!doc) throw new Error(`edit for a document that is not open: ${uri}`);
        host.editDocument(doc, edits);
      }
      return true;
    },

    closeDocument(doc) {
      host.documents = host.documents.filter((d) => d !== doc);
      doc.isClosed = true;
      const closed = host.tabs.filter((t) => t.input.uri.toString() === doc.uri.toString());
      host.tabs = host.tabs.filter((t) => !closed.includes(t));
      if (host.activeEditor && host.activeEditor.document === doc) host.activeEditor = undefined;
      host._emitters.didChangeTabs.fire({ opened: [], closed, changed: [] });
      host._emitters.didClose.fire(doc);
    },

    /** Changes a setting (full key, e.g. "scalelint.rules") and fires the event. */
    setSetting(key, value) {
      const parts = key.split('.');
      let cur = settings;
      for (const p of parts.slice(0, -1)) {
        if (typeof cur[p] !== 'object' || cur[p] === null) cur[p] = {};
        cur = cur[p];
      }
      if (value === undefined) delete cur[parts[parts.length - 1]];
      else cur[parts[parts.length - 1]] = JSON.parse(JSON.stringify(value));
      host._emitters.didChangeConfiguration.fire({
        affectsConfiguration: (section) => key === section || key.startsWith(`${section}.`) || section.startsWith(`${key}.`),
      });
    },

    /** The diagnostics the client put in its collections for a document. */
    diagnostics(uri) {
      const k = uri.toString();
      const out = [];
      for (const c of host.collections) {
        if (!c._disposed && c._map.has(k)) out.push(...c._map.get(k));
      }
      return out;
    },

    /** Waits for the listener errors to stay empty and a condition to hold. */
    async waitFor(what, cond, timeoutMs = 20000) {
      const t0 = Date.now();
      for (;;) {
        const v = await cond();
        if (v) return v;
        if (Date.now() - t0 > timeoutMs) {
          throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },

    /** The one provider of a kind the client registered (hover, codeAction, ...). */
    provider(kind) {
      const list = (host.providers[kind] || []).filter((p) => !p.disposed);
      if (list.length !== 1) throw new Error(`expected one ${kind} provider, got ${list.length}`);
      return list[0].provider;
    },
  };

  function registerProvider(kind) {
    return (selector, provider, ...rest) => {
      const entry = { selector, provider, rest, disposed: false };
      (host.providers[kind] ||= []).push(entry);
      return new Disposable(() => {
        entry.disposed = true;
      });
    };
  }

  function matchFilter(filter, doc) {
    if (typeof filter === 'string') return filter === '*' || filter === doc.languageId;
    if (filter.notebookType !== undefined) return false;
    if (filter.language !== undefined && filter.language !== '*' && filter.language !== doc.languageId) return false;
    if (filter.scheme !== undefined && filter.scheme !== '*' && filter.scheme !== doc.uri.scheme) return false;
    if (filter.pattern !== undefined) {
      const pattern = typeof filter.pattern === 'string' ? filter.pattern : filter.pattern.pattern;
      const re = new RegExp(
        '^' +
          pattern
            .replace(/[.+^$()|[\]\\]/g, '\\$&')
            .replace(/\{([^}]*)\}/g, (_, alts) => `(${alts.split(',').join('|')})`)
            .replace(/\*\*\/?/g, '\u0000')
            .replace(/\*/g, '[^/]*')
            .replace(/\?/g, '[^/]')
            .replace(/\u0000/g, '.*') +
          '$',
      );
      if (!re.test(doc.uri.path) && !re.test(path.basename(doc.uri.path))) return false;
    }
    return true;
  }

  class OutputChannel {
    constructor(name, opts) {
      this.name = name;
      this.lines = [];
      this.shown = 0;
      this.logLevel = 2; // Debug
      this.onDidChangeLogLevel = new EventEmitter().event;
      this.log = !!(opts && opts.log);
    }
    append(v) {
      this.lines.push(v);
    }
    appendLine(v) {
      this.lines.push(v);
    }
    replace(v) {
      this.lines = [v];
    }
    clear() {
      this.lines = [];
    }
    show() {
      this.shown++;
    }
    hide() {}
    dispose() {
      this.disposed = true;
    }
    trace(m) {
      this.lines.push(`[trace] ${m}`);
    }
    debug(m) {
      this.lines.push(`[debug] ${m}`);
    }
    info(m) {
      this.lines.push(`[info] ${m}`);
    }
    warn(m) {
      this.lines.push(`[warn] ${m}`);
    }
    error(m) {
      this.lines.push(`[error] ${m instanceof Error ? m.message : m}`);
    }
  }

  function message(level) {
    return (text, ...items) => {
      const opts = items.length > 0 && typeof items[0] === 'object' && items[0] !== null && !('title' in items[0]) ? items.shift() : undefined;
      host.messages.push({ level, text, items, opts });
      return Promise.resolve(host.messageAnswer({ level, text, items }));
    };
  }

  const vscode = {
    __esModule: true,
    version: options.version || '1.91.0',
    Disposable,
    EventEmitter,
    CancellationTokenSource,
    CancellationError,
    Uri,
    Position,
    Range,
    Selection,
    Location,
    Diagnostic,
    DiagnosticSeverity,
    DiagnosticTag,
    DiagnosticRelatedInformation,
    MarkdownString,
    Hover,
    CodeAction,
    CodeActionKind,
    CodeActionTriggerKind,
    TextEdit,
    SnippetString,
    SnippetTextEdit,
    WorkspaceEdit,
    Command,
    ThemeColor,
    ThemeIcon,
    CompletionItem,
    CompletionList,
    CompletionItemKind: new Proxy({}, { get: (_, k) => (typeof k === 'string' ? k.length : undefined) }),
    CompletionItemTag: { Deprecated: 1 },
    CompletionTriggerKind: { Invoke: 0, TriggerCharacter: 1, TriggerForIncompleteCompletions: 2 },
    InsertTextFormat: { PlainText: 1, Snippet: 2 },
    InlayHint,
    InlayHintKind: { Type: 1, Parameter: 2 },
    InlayHintLabelPart,
    CodeLens,
    DocumentLink,
    SymbolInformation,
    CallHierarchyItem,
    TypeHierarchyItem,
    TabInputText,
    TabInputTextDiff,
    TabInputCustom,
    TabInputNotebook,
    StatusBarAlignment: { Left: 1, Right: 2 },
    ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    TextDocumentSaveReason: { Manual: 1, AfterDelay: 2, FocusOut: 3 },
    EndOfLine: { LF: 1, CRLF: 2 },
    FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
    SymbolKind: new Proxy({}, { get: (_, k) => (typeof k === 'string' ? k.length : undefined) }),
    SymbolTag: { Deprecated: 1 },
    DocumentHighlightKind: { Text: 0, Read: 1, Write: 2 },
    FoldingRangeKind: { Comment: 1, Imports: 2, Region: 3 },
    SignatureHelpTriggerKind: { Invoke: 1, TriggerCharacter: 2, ContentChange: 3 },
    TextDocumentChangeReason: { Undo: 1, Redo: 2 },
    UIKind: { Desktop: 1, Web: 2 },
    env: {
      appName: 'Fake Code',
      appRoot: '/nonexistent',
      language: 'en',
      machineId: 'test',
      sessionId: 'test',
      uiKind: 1,
      uriScheme: 'vscode',
      clipboard: {
        writeText: (t) => {
          host.clipboard = t;
          return Promise.resolve();
        },
        readText: () => Promise.resolve(host.clipboard),
      },
      openExternal: (uri) => {
        host.executed.push({ command: 'env.openExternal', args: [uri] });
        return Promise.resolve(true);
      },
    },
    commands: {
      registerCommand(id, fn, thisArg) {
        if (host.commands.has(id)) throw new Error(`command ${id} already registered`);
        host.commands.set(id, fn.bind(thisArg));
        return new Disposable(() => host.commands.delete(id));
      },
      async executeCommand(id, ...args) {
        host.executed.push({ command: id, args });
        if (host.commands.has(id)) return host.commands.get(id)(...args);
        if (options.builtinCommands && id in options.builtinCommands) return options.builtinCommands[id](...args);
        throw new Error(`command '${id}' not found`);
      },
      getCommands: () => Promise.resolve([...host.commands.keys()]),
    },
    window: {
      get activeTextEditor() {
        return host.activeEditor;
      },
      get visibleTextEditors() {
        return host.activeEditor ? [host.activeEditor] : [];
      },
      visibleNotebookEditors: [],
      tabGroups: {
        get all() {
          return [{ isActive: true, viewColumn: 1, tabs: host.tabs, activeTab: host.tabs[host.tabs.length - 1] }];
        },
        get activeTabGroup() {
          return this.all[0];
        },
        onDidChangeTabs: host._emitters.didChangeTabs.event,
        onDidChangeTabGroups: host._emitters.didChangeTabGroups.event,
      },
      onDidChangeActiveTextEditor: host._emitters.didChangeActiveEditor.event,
      onDidChangeVisibleTextEditors: host._emitters.didChangeVisibleEditors.event,
      onDidChangeVisibleNotebookEditors: new EventEmitter().event,
      onDidChangeTextEditorSelection: new EventEmitter().event,
      createOutputChannel(name, opts) {
        const c = new OutputChannel(name, typeof opts === 'object' ? opts : undefined);
        host.outputChannels.push(c);
        return c;
      },
      createStatusBarItem(idOrAlignment, alignmentOrPriority, priority) {
        const item =
          typeof idOrAlignment === 'string'
            ? { id: idOrAlignment, alignment: alignmentOrPriority, priority }
            : { id: undefined, alignment: idOrAlignment, priority: alignmentOrPriority };
        Object.assign(item, {
          text: '',
          tooltip: undefined,
          command: undefined,
          backgroundColor: undefined,
          visible: false,
          history: [],
          show() {
            this.visible = true;
          },
          hide() {
            this.visible = false;
          },
          dispose() {
            this.visible = false;
            this.disposed = true;
          },
        });
        const proxy = new Proxy(item, {
          set(target, key, value) {
            target[key] = value;
            if (key === 'text') target.history.push(value);
            return true;
          },
        });
        host.statusBarItems.push(proxy);
        return proxy;
      },
      showErrorMessage: message('error'),
      showWarningMessage: message('warning'),
      showInformationMessage: message('info'),
      showQuickPick(items, opts) {
        return Promise.resolve(items).then((list) => {
          host.quickPicks.push({ items: list, opts });
          return host.quickPickAnswer(list, opts);
        });
      },
      showTextDocument(doc, opts) {
        host.shownDocuments.push({ doc, opts });
        return Promise.resolve({ document: doc });
      },
      withProgress(_opts, task) {
        return task({ report() {} }, new CancellationTokenSource().token);
      },
    },
    workspace: {
      get workspaceFolders() {
        return host.workspaceFolders;
      },
      get name() {
        return host.workspaceFolders ? host.workspaceFolders[0].name : undefined;
      },
      get textDocuments() {
        return host.documents;
      },
      notebookDocuments: [],
      isTrusted: true,
      getConfiguration,
      getWorkspaceFolder(uri) {
        return (host.workspaceFolders || []).find((f) => uri.fsPath.startsWith(f.uri.fsPath + path.sep));
      },
      onDidOpenTextDocument: host._emitters.didOpen.event,
      onDidCloseTextDocument: host._emitters.didClose.event,
      onDidChangeTextDocument: host._emitters.didChange.event,
      onWillSaveTextDocument: host._emitters.willSave.event,
      onDidSaveTextDocument: host._emitters.didSave.event,
      onDidChangeConfiguration: host._emitters.didChangeConfiguration.event,
      onDidChangeWorkspaceFolders: host._emitters.didChangeWorkspaceFolders.event,
      onDidOpenNotebookDocument: new EventEmitter().event,
      onDidCloseNotebookDocument: new EventEmitter().event,
      onDidChangeNotebookDocument: new EventEmitter().event,
      onDidSaveNotebookDocument: new EventEmitter().event,
      onDidCreateFiles: new EventEmitter().event,
      onDidRenameFiles: new EventEmitter().event,
      onDidDeleteFiles: new EventEmitter().event,
      onWillCreateFiles: new EventEmitter().event,
      onWillRenameFiles: new EventEmitter().event,
      onWillDeleteFiles: new EventEmitter().event,
      createFileSystemWatcher(glob) {
        const w = {
          glob,
          onDidCreate: new EventEmitter().event,
          onDidChange: new EventEmitter().event,
          onDidDelete: new EventEmitter().event,
          dispose() {},
        };
        (host.watchers ||= []).push(w);
        return w;
      },
      registerTextDocumentContentProvider(scheme, provider) {
        host.contentProviders.set(scheme, provider);
        return new Disposable(() => host.contentProviders.delete(scheme));
      },
      async openTextDocument(arg) {
        if (arg instanceof Uri) {
          const open = host.documents.find((d) => d.uri.toString() === arg.toString());
          if (open) return open;
          const provider = host.contentProviders.get(arg.scheme);
          if (provider) {
            const text = await provider.provideTextDocumentContent(arg, new CancellationTokenSource().token);
            return new FakeTextDocument(arg, arg.path.endsWith('.md') ? 'markdown' : 'plaintext', text);
          }
          if (arg.scheme === 'file') {
            return new FakeTextDocument(arg, 'yaml', require('node:fs').readFileSync(arg.fsPath, 'utf8'));
          }
          throw new Error(`cannot open ${arg}`);
        }
        if (typeof arg === 'object' && arg !== null) {
          return new FakeTextDocument(new Uri('untitled', '', `Untitled-${host.documents.length + 1}`), arg.language || 'plaintext', arg.content || '');
        }
        return new FakeTextDocument(Uri.file(arg), 'yaml', require('node:fs').readFileSync(arg, 'utf8'));
      },
      applyEdit(edit) {
        return Promise.resolve(host.applyWorkspaceEdit(edit));
      },
      fs: {},
    },
    languages: {
      match(selector, doc) {
        const list = Array.isArray(selector) ? selector : [selector];
        return list.some((f) => matchFilter(f, doc)) ? 10 : 0;
      },
      createDiagnosticCollection(name) {
        const map = new Map();
        const c = {
          name,
          _map: map,
          _disposed: false,
          set(uriOrEntries, diags) {
            if (Array.isArray(uriOrEntries)) {
              for (const [u, d] of uriOrEntries) {
                if (d === undefined) map.delete(u.toString());
                else map.set(u.toString(), [...d]);
              }
            } else if (diags === undefined) {
              map.delete(uriOrEntries.toString());
            } else {
              map.set(uriOrEntries.toString(), [...diags]);
            }
            host._emitters.didChangeDiagnostics.fire({});
          },
          delete(uri) {
            map.delete(uri.toString());
          },
          clear() {
            map.clear();
          },
          get(uri) {
            return map.get(uri.toString());
          },
          has(uri) {
            return map.has(uri.toString());
          },
          forEach(cb) {
            for (const [k, v] of map) cb(Uri.parse(k), v, c);
          },
          dispose() {
            c._disposed = true;
            map.clear();
          },
        };
        host.collections.push(c);
        return c;
      },
      getDiagnostics(uri) {
        return host.diagnostics(uri);
      },
      onDidChangeDiagnostics: host._emitters.didChangeDiagnostics.event,
      registerHoverProvider: registerProvider('hover'),
      registerCodeActionsProvider: registerProvider('codeAction'),
      registerCompletionItemProvider: registerProvider('completion'),
      registerDefinitionProvider: registerProvider('definition'),
      registerReferenceProvider: registerProvider('references'),
      registerInlayHintsProvider: registerProvider('inlayHint'),
      registerDocumentSymbolProvider: registerProvider('documentSymbol'),
      registerCodeLensProvider: registerProvider('codeLens'),
      registerDocumentLinkProvider: registerProvider('documentLink'),
      registerSignatureHelpProvider: registerProvider('signatureHelp'),
      registerRenameProvider: registerProvider('rename'),
      registerDocumentFormattingEditProvider: registerProvider('formatting'),
      registerDocumentRangeFormattingEditProvider: registerProvider('rangeFormatting'),
      registerOnTypeFormattingEditProvider: registerProvider('onTypeFormatting'),
      registerDocumentHighlightProvider: registerProvider('documentHighlight'),
      registerWorkspaceSymbolProvider: registerProvider('workspaceSymbol'),
      registerFoldingRangeProvider: registerProvider('foldingRange'),
      registerSelectionRangeProvider: registerProvider('selectionRange'),
      registerDeclarationProvider: registerProvider('declaration'),
      registerImplementationProvider: registerProvider('implementation'),
      registerTypeDefinitionProvider: registerProvider('typeDefinition'),
      registerColorProvider: registerProvider('color'),
      registerCallHierarchyProvider: registerProvider('callHierarchy'),
      registerTypeHierarchyProvider: registerProvider('typeHierarchy'),
      registerLinkedEditingRangeProvider: registerProvider('linkedEditing'),
      registerInlineValuesProvider: registerProvider('inlineValues'),
      registerInlineCompletionItemProvider: registerProvider('inlineCompletion'),
      registerDocumentSemanticTokensProvider: registerProvider('semanticTokens'),
      registerDocumentRangeSemanticTokensProvider: registerProvider('rangeSemanticTokens'),
    },
  };
  return { vscode, host, FakeTextDocument };
}

/**
 * Makes require('vscode') return a fresh fake, and optionally other modules
 * (by request string) return the given stubs. Returns the fake and its host.
 */
function install(options = {}) {
  const fake = createFakeVscode(options);
  const stubs = { vscode: fake.vscode, ...(options.stubs || {}) };
  const original = Module._load;
  Module._load = function (request, parent, isMain) {
    if (Object.prototype.hasOwnProperty.call(stubs, request)) {
      return stubs[request];
    }
    return original.call(this, request, parent, isMain);
  };
  fake.uninstall = () => {
    Module._load = original;
  };
  return fake;
}

/** A minimal ExtensionContext. */
function extensionContext(extensionPath) {
  return {
    extensionPath,
    extensionUri: { fsPath: extensionPath, scheme: 'file', path: extensionPath },
    subscriptions: [],
    globalState: { get: () => undefined, update: () => Promise.resolve(), keys: () => [] },
    workspaceState: { get: () => undefined, update: () => Promise.resolve(), keys: () => [] },
    asAbsolutePath: (p) => path.join(extensionPath, p),
    storageUri: undefined,
    globalStorageUri: undefined,
    logUri: undefined,
    extensionMode: 3,
  };
}

module.exports = { createFakeVscode, install, extensionContext, fileURLToPath };
