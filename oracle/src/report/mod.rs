//! Nightly reports: the data a `ptxdiff nightly` run (or a merge of its
//! shards) produces, and its three renderings in `reports/<date>/`:
//! `summary.json` (machine-readable, a stable schema), `summary.md` and a
//! self-contained `index.html`. Every file here does one job:
//!
//! - [`model`] holds the report types and their derived figures;
//! - [`json`] writes `summary.json` and reads it back (schema [`model::SCHEMA`]);
//! - [`markdown`] writes `summary.md`;
//! - [`html`] writes `index.html`, every input string through [`html::escape_html`];
//! - [`diff`] makes the expected/actual unified diff both renderings show;
//! - [`write`] writes the three files, each atomically;
//! - [`merge`] unites the shards of one night into one report;
//! - [`collect`] fills a report from the engine's program reports;
//! - [`reduced`] adds a finding's reduction and its expected/actual buffers.

pub mod collect;
pub mod diff;
pub mod html;
pub mod json;
pub mod markdown;
pub mod merge;
pub mod model;
pub mod reduced;
pub mod write;

pub use merge::merge;
pub use model::{FindingReport, NightlyReport, SCHEMA};
pub use write::write_report;
