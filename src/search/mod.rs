//! The search: micro-Max's ideas in readable Rust. It uses the evaluation (`crate::eval`)
//! and does not own it.
//!
//! The public face: [`search`] carries out a [`SearchRequest`] (position, [`Limits`],
//! root moves, [`SearchOptions`], threads) under a [`SearchControl`] shared with the
//! caller (stop, abort, deadlines, progress for `stat01`), sends [`Report`]s while it
//! runs and returns a [`SearchResult`].
//!
//! The rooms behind it, each with one job: `threads` starts the threads of one search
//! (Lazy SMP) and `shared` is what they share; `searcher` is one thread's state;
//! `iterate` deepens at the root; `node` is the full-width move loop of root and interior
//! nodes; `quiesce` the search below the horizon; `pv` the principal variation and the
//! expected reply; `ordering` and `history` the move picker and what it learns; `see`
//! static exchanges; `eval_cache` each thread's remembered evaluations; `thread_memory`
//! what a thread's tables hand on to the game's next search; `tt` the table
//! shared by the threads; `score` the score scale; `time` every decision about time;
//! `strength` playing below full strength; `params` every tunable number.

mod control;
mod eval_cache;
mod history;
mod iterate;
mod node;
pub mod ordering;
mod params;
mod pv;
mod quiesce;
mod request;
mod result;
mod score;
mod searcher;
pub mod see;
mod shared;
mod strength;
mod thread_memory;
mod threads;
mod time;
pub mod tt;

pub use control::{Progress, SearchControl};
pub use history::History;
pub use params::MOVE_OVERHEAD;
pub use request::{Clock, Limits, SearchOptions, SearchRequest, TablebaseUse};
pub use result::{Info, Report, SearchResult, SearchScore};
pub use score::{DRAW, MATE, MATE_BOUND, MAX_DEPTH};
pub use strength::Strength;
pub use thread_memory::{SearchMemory, ThreadMemory};
pub use threads::{SEARCH_STACK_BYTES, search};
pub use time::{Budget, node_budget};
pub use tt::{DEFAULT_HASH_MB, TranspositionTable};
