//! Ferrimax: a chess engine that speaks the XBoard/WinBoard protocol (CECP v2).
//!
//! `chess` holds the rules, and nothing else of the crate; see `../shared/DESIGN.md`
//! for how the modules fit together.

pub mod cecp;
pub mod chess;
pub mod cli;
pub mod eval;
pub mod game;
pub mod search;
