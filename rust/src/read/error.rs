//! Errors of the readers, as values: what went wrong, the file, the line and its text.

/// What kind of fault a [`ReadError`] reports (the Python exception it becomes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A malformed line or field (`InputFormatError`).
    Format,
    /// No data line (`EmptyInputError`).
    Empty,
    /// A (topic, docno) pair listed twice (`DuplicateError`); the message is written by
    /// the caller from `details`: topic, docno, and for qrels the second fields of the
    /// two lines.
    Duplicate,
    /// gzip data that cannot be decompressed (`InputFormatError`; the caller names why).
    Gzip,
    /// A file that cannot be read (`FileAccessError`): `details` holds the OS error
    /// number, if any, and `reason` the OS's words.
    Access,
    /// A line longer than [`super::limits::LINE_LIMIT`] (`InputFormatError`).
    LongLine,
    /// A file whose reading would hold more than the memory limit, or could not allocate
    /// (`InputError`): `details` holds the bytes and the limit, or the bytes alone
    /// ([`super::limits`]).
    Memory,
    /// The call was stopped while it waited for the file's bytes ([`super::open`]): the
    /// bindings raise what stopped it (the exception of a signal's Python handler).
    Stopped,
}

/// A reader's error: `reason` is the message without its location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    pub kind: Kind,
    pub reason: String,
    pub source: String,
    /// 1-based line number.
    pub line: Option<usize>,
    /// The line's text (undecodable bytes replaced).
    pub text: Option<String>,
    pub details: Vec<String>,
}

impl ReadError {
    /// A fault of line `line` (1-based) whose text is `text`.
    pub fn at(kind: Kind, reason: String, source: &str, line: usize, text: String) -> Self {
        ReadError {
            kind,
            reason,
            source: source.to_string(),
            line: Some(line),
            text: Some(text),
            details: Vec::new(),
        }
    }

    /// A fault of the whole file.
    pub fn whole(kind: Kind, reason: String, source: &str) -> Self {
        ReadError {
            kind,
            reason,
            source: source.to_string(),
            line: None,
            text: None,
            details: Vec::new(),
        }
    }
}
