//! The boundary with Python: one module per part of the engine, each converting numpy
//! arrays and bytes into slices, running the engine without the GIL and its `Result`s into
//! Python values or the package's exceptions.

pub mod bounds;
pub mod columns;
pub mod dicts;
pub mod diversity;
pub mod guard;
pub mod measures;
pub mod output;
pub mod scales;
pub mod strings;
pub mod table;
pub mod trec;
