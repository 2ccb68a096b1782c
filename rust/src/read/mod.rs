//! Readers of TREC text: qrels (`qid iter docno rel`) and runs (`qid Q0 docno rank score
//! runid`), parsed from bytes exactly as `irscale.io.trec` reads them.
//!
//! Two passes, as the Python readers: a fast one ([`scan`]) splits every line on runs of
//! blanks and tabs and parses the typed fields; when a line does not fit, the whole text is
//! diagnosed line by line ([`diagnose`]: the specification of validity, Python's rules of
//! whitespace and UTF-8), and the first bad line is named in the error. Runs are read in
//! blocks of whole lines ([`blocks`], [`run`]): their parsed fields are kept, not their
//! text, which is read again only to name a line. Files of other fields, as many as the
//! caller says, are read by the same fast pass into typed columns ([`table`]). Every reader
//! takes lines up to a limit and memory within its call's budget ([`limits`]).

pub mod append;
pub mod blocks;
pub mod diagnose;
pub mod diversity;
pub mod duplicates;
pub mod error;
pub mod fields;
pub mod limits;
pub mod lines;
pub mod open;
pub mod plain_table;
pub mod qrels;
pub mod run;
pub mod scan;
pub mod source;
pub mod table;
pub mod topics;
