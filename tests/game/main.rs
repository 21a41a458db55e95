//! The game manager driven in process (see `common::game`): the protocol's behaviour,
//! line by line and with exact replies, without starting the binary. What needs a real
//! process (start-up, signals, exit, logging, wall-clock budgets) stays in
//! `tests/protocol_process.rs`.

#[path = "../common/mod.rs"]
mod common;

mod bad_input;
mod basics;
mod chess960;
mod ics;
mod levels;
mod modes;
mod play;
mod policy;
mod positions;
mod tablebases;
mod uci;

/// No output at all.
pub const SILENT: [&str; 0] = [];
