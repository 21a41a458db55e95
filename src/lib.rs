//! Ferrimax: a chess engine that speaks the XBoard/WinBoard protocol (CECP v2).
//!
//! `chess` holds the rules, `eval` the evaluation, `search` the search, `cecp` the
//! protocol's text and `game` the game-state manager that joins them; `cli` the
//! command-line modes; `memory` what the engine does when memory is short.
//! `docs/ARCHITECTURE.md` in the repository shows how they fit together.

pub mod book;
pub mod cecp;
pub mod chess;
pub mod cli;
pub mod eval;
pub mod game;
pub mod learn;
pub mod memory;
pub mod search;
pub mod tablebase;
pub mod uci;
