//! The preprocessor's state and its top-level loop: set up predefined and
//! command-line macros, pull fully expanded tokens, write them out, and
//! package the [`Output`].
//!
//! Invariants:
//! - The loop ends when the main file is exhausted or a hard limit is hit;
//!   every limit produces one error diagnostic, never a panic or a hang.
//! - At most `MAX_DIAGS` diagnostics are kept (then one note says so).
//! - Non-empty output ends with a newline.

use crate::expand::Context;
use crate::files::Frame;
use crate::lexer::lex_str;
use crate::macros::{parse_define, Macro, MacroKind};
use crate::token::{Kind, Tok};
use crate::writer::Writer;
use crate::{MacroDef, Options, Output, SourceLoader};
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::rc::Rc;
use warpsafe_source::{Diagnostic, FileId, SourceMap, Span};

/// Output larger than this stops preprocessing with an error.
const MAX_OUTPUT: usize = 256 << 20;
const MAX_DIAGS: usize = 1000;

/// Macros every run starts with.
const PREDEFINED: &[(&str, &str)] = &[
    ("__CUDACC__", "1"),
    ("__NVCC__", "1"),
    ("__CUDA_ARCH__", "800"),
    ("__cplusplus", "201703L"),
    ("__CUDACC_VER_MAJOR__", "12"),
    ("__CUDACC_VER_MINOR__", "0"),
    ("__CUDACC_VER_BUILD__", "0"),
    ("__DATE__", "\"Jan  1 1970\""),
    ("__TIME__", "\"00:00:00\""),
    // The host platform nvcc runs on most often (x86-64 Linux, LP64: `long`
    // is 64 bits, as warpsafe's types have it), so that code written for
    // it (`#if defined(__linux__) ... #else #error`) preprocesses.
    ("__linux__", "1"),
    ("__linux", "1"),
    ("__unix__", "1"),
    ("__unix", "1"),
    ("__x86_64__", "1"),
    ("__LP64__", "1"),
    // nvcc's attribute macros (host_defines.h), which carry no semantics
    // for verification; defined away so the grammar never sees them.
    ("__align__(n)", ""),
    ("__builtin_align__(n)", ""),
    ("__noinline__", ""),
    ("__forceinline__", "inline"),
];

pub(crate) struct Pp<'a> {
    /// Built-in headers processed before the main file's first line (the
    /// compiler's implicit includes).
    pub implicit: Vec<&'static str>,
    pub sources: &'a mut SourceMap,
    pub opts: &'a Options,
    pub loader: &'a dyn SourceLoader,
    pub main: FileId,
    /// Original text of every file met so far, indexed by `FileId`.
    pub texts: Vec<Option<Rc<str>>>,
    pub macros: HashMap<Rc<str>, Rc<Macro>>,
    /// `#pragma push_macro` stacks.
    pub pushed_macros: HashMap<Rc<str>, Vec<Option<Rc<Macro>>>>,
    pub contexts: Vec<Context>,
    /// Expanding a token list in isolation: never read from files.
    pub arg_mode: bool,
    pub arg_depth: u32,
    /// Expanding an `#if` line: operands of `defined` are not expanded.
    pub in_if: bool,
    pub defined_state: u8,
    pub expansion_off: bool,
    pub work: usize,
    pub frames: Vec<Frame>,
    /// One token of lookahead from the file layer.
    pub lookahead: Option<Tok>,
    pub writer: Writer,
    pub diags: Vec<Diagnostic>,
    diag_overflow: bool,
    pub reported: HashSet<&'static str>,
    pub once: HashSet<FileId>,
    pub guards: HashMap<FileId, Rc<str>>,
    pub loaded: HashMap<PathBuf, FileId>,
    pub missing: HashSet<PathBuf>,
    pub builtin_ids: HashMap<String, FileId>,
    pub include_count: usize,
    pub counter: u64,
}

impl<'a> Pp<'a> {
    pub fn new(
        main: FileId,
        sources: &'a mut SourceMap,
        opts: &'a Options,
        loader: &'a dyn SourceLoader,
    ) -> Pp<'a> {
        let mut pp = Pp {
            implicit: Vec::new(),
            sources,
            opts,
            loader,
            main,
            texts: Vec::new(),
            macros: HashMap::new(),
            pushed_macros: HashMap::new(),
            contexts: Vec::new(),
            arg_mode: false,
            arg_depth: 0,
            in_if: false,
            defined_state: 0,
            expansion_off: false,
            work: 0,
            frames: Vec::new(),
            lookahead: None,
            writer: Writer::new(main),
            diags: Vec::new(),
            diag_overflow: false,
            reported: HashSet::new(),
            once: HashSet::new(),
            guards: HashMap::new(),
            loaded: HashMap::new(),
            missing: HashSet::new(),
            builtin_ids: HashMap::new(),
            include_count: 0,
            counter: 0,
        };
        pp.predefine();
        pp
    }

    fn predefine(&mut self) {
        for (name, kind) in [
            ("__LINE__", MacroKind::Line),
            ("__FILE__", MacroKind::File),
            ("__BASE_FILE__", MacroKind::BaseFile),
            ("__COUNTER__", MacroKind::Counter),
            ("__INCLUDE_LEVEL__", MacroKind::IncludeLevel),
        ] {
            self.macros
                .insert(Rc::from(name), Rc::new(Macro::builtin(name, kind)));
        }
        for (name, value) in PREDEFINED {
            self.define_text(name, value);
        }
        let opts = self.opts;
        for (name, value) in &opts.defines {
            let (name, value) = match value {
                Some(v) => (name.as_str(), v.as_str()),
                None => name.split_once('=').unwrap_or((name.as_str(), "1")),
            };
            self.define_text(name, value);
        }
        for name in &opts.undefines {
            self.macros.remove(name.trim());
        }
    }

    /// Define `name` as `value`, like `-D name=value`.
    fn define_text(&mut self, name: &str, value: &str) {
        let toks = lex_str(&format!("{name} {value}"), self.main);
        match parse_define(&toks, None) {
            Ok(m) => {
                self.macros.insert(Rc::clone(&m.name), Rc::new(m));
            }
            Err((msg, _)) => self.error(
                "macro",
                format!("invalid definition `-D{name}`: {msg}"),
                None,
            ),
        }
    }

    pub fn text_of(&self, file: FileId) -> Option<&Rc<str>> {
        self.texts.get(file.0 as usize).and_then(Option::as_ref)
    }

    pub fn set_text(&mut self, file: FileId, text: Rc<str>) {
        let i = file.0 as usize;
        if self.texts.len() <= i {
            self.texts.resize(i + 1, None);
        }
        self.texts[i] = Some(text);
    }

    pub fn file_name(&self, file: FileId) -> String {
        self.sources
            .get(file)
            .map(|f| f.name.clone())
            .unwrap_or_default()
    }

    fn push_diag(&mut self, d: Diagnostic) {
        if self.diags.len() < MAX_DIAGS {
            self.diags.push(d);
        } else if !self.diag_overflow {
            self.diag_overflow = true;
            self.diags.push(Diagnostic::note(
                "preproc",
                "too many diagnostics; the rest are not shown",
            ));
        }
    }

    pub fn error(&mut self, code: &'static str, msg: impl Into<String>, span: Option<Span>) {
        let mut d = Diagnostic::error(code, msg);
        d.span = span;
        self.push_diag(d);
    }

    pub fn warning(&mut self, code: &'static str, msg: impl Into<String>, span: Option<Span>) {
        let mut d = Diagnostic::warning(code, msg);
        d.span = span;
        self.push_diag(d);
    }

    pub fn diag(&mut self, d: Diagnostic) {
        self.push_diag(d);
    }

    /// Report an error only the first time `key` comes up.
    pub fn error_once(
        &mut self,
        key: &'static str,
        code: &'static str,
        msg: &str,
        span: Option<Span>,
    ) {
        if self.reported.insert(key) {
            self.error(code, msg, span);
        }
    }

    fn emit(&mut self, t: &Tok) {
        let src = self
            .texts
            .get(t.origin.file.0 as usize)
            .and_then(|o| o.as_deref());
        self.writer.emit(t, src);
    }

    /// Pull the next output token, dropping `_Pragma("...")` operators.
    fn next_output(&mut self, pending: &mut VecDeque<Tok>) -> Option<Tok> {
        let shape = |k: usize, u: &Tok| match k {
            0 => u.is_punct("("),
            1 => u.kind == Kind::Str,
            _ => u.is_punct(")"),
        };
        loop {
            let t = match pending.pop_front() {
                Some(t) => t,
                None => self.next_expanded()?,
            };
            if !t.is_ident("_Pragma") || !pending.is_empty() {
                return Some(t);
            }
            let mut look = Vec::new();
            while look.len() < 3 {
                let Some(u) = self.next_expanded() else { break };
                let ok = shape(look.len(), &u);
                look.push(u);
                if !ok {
                    break;
                }
            }
            let matched = look.len() == 3 && look.iter().enumerate().all(|(k, u)| shape(k, u));
            if !matched {
                pending.extend(look);
                return Some(t);
            }
        }
    }

    pub fn run(mut self) -> Output {
        let Some(text) = self
            .sources
            .get(self.main)
            .map(|f| Rc::<str>::from(f.text.as_str()))
        else {
            self.error("preproc", "the main file is not in the source map", None);
            return self.finish();
        };
        if text.len() > u32::MAX as usize {
            self.error("preproc", "file too large", None);
            return self.finish();
        }
        let main_name = self.file_name(self.main);
        self.loaded.insert(
            crate::include::normalize(std::path::Path::new(&main_name)),
            self.main,
        );
        self.push_frame(self.main, text);
        for name in std::mem::take(&mut self.implicit) {
            self.implicit_include(name);
        }
        let mut pending = VecDeque::new();
        while let Some(t) = self.next_output(&mut pending) {
            if t.kind == Kind::Eof {
                continue;
            }
            self.emit(&t);
            if self.writer.text.len() > MAX_OUTPUT {
                self.error(
                    "preproc",
                    "preprocessed output too large; stopping",
                    Some(t.span()),
                );
                break;
            }
        }
        self.finish()
    }

    fn finish(self) -> Output {
        let mut macros: Vec<MacroDef> = self
            .macros
            .values()
            .map(|m| MacroDef {
                name: m.name.to_string(),
                params: m
                    .is_function_like()
                    .then(|| m.params().iter().map(|p| p.to_string()).collect()),
                variadic: m.variadic(),
                body: m.body_text(),
                span: m.def,
                dynamic: m.is_dynamic(),
            })
            .collect();
        macros.sort_by(|a, b| a.name.cmp(&b.name));
        let mut text = self.writer.text;
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        Output {
            text,
            map: self.writer.map,
            diagnostics: self.diags,
            macros,
        }
    }
}
