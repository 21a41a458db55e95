//! Texel's tuning method (Peter Österlund's, as the Chess Programming Wiki describes it):
//! find the weights whose evaluation, through a logistic curve, best predicts the results
//! of real games.
//!
//! The positions come from Ferrimax's own games: `ferrimax selfplay` (`selfplay.rs`)
//! plays them at a fixed number of nodes a move, and any PGN of its matches serves too. Each is
//! taken to its quiet end first: a capture search from it (stand pat, captures only)
//! gives the line both sides would play, and the position at its end is the one scored,
//! since a static evaluation means little with a piece hanging. Few positions are taken
//! per game (neighbours in one game are nearly the same sample), and every fifth game is
//! kept out of the fit to check it: the search stops when the held-out games are
//! predicted no better, so the weights move away from the hand-set ones only as far as
//! games they were not fitted on agree with.
//!
//! The error is the mean of (result − 1/(1 + 10^(−k·eval/400)))², `eval` from White's
//! side in the evaluation's units, and `k` is fitted to the starting weights first. The
//! search is either Texel's local one here (each weight in turn moves a step up or down
//! while that lowers the error) or, for many weights at once, the gradient descent of
//! `gradient.rs`.

pub mod gradient;

use super::SplitMix;
use super::pgn::Game;
use crate::chess::{Board, Color, Move, MoveList};
use crate::eval::{self, Weights};
use crate::search::ordering::mvv_lva;

/// Plies skipped at the start of every game (the match openings' 8 moves).
pub const OPENING_PLIES: usize = 16;
/// One game in this many is held out to check the fit.
const VALIDATION_EVERY: usize = 5;
/// The capture search that finds a quiet position stops this deep.
const QUIET_MAX_PLY: usize = 12;
/// Bounds of the scale `k` and the precision it is fitted to.
const K_RANGE: (f64, f64) = (0.05, 5.0);
const K_PRECISION: f64 = 1e-4;
/// The search ends after this many passes in a row without a better held-out error.
const PATIENCE: usize = 3;

/// A quiet position and the result of the game it came from (White's score).
pub struct Sample {
    board: Board,
    result: f64,
}

/// What to take from the games.
#[derive(Copy, Clone, Debug)]
pub struct Sampling {
    /// Positions taken per game at most.
    pub per_game: usize,
    /// Seed of the choice of positions.
    pub seed: u64,
}

/// The positions of `games`, split into the ones to fit and the held-out ones.
pub fn collect(games: &[Game], sampling: Sampling) -> (Vec<Sample>, Vec<Sample>) {
    let mut rng = SplitMix(sampling.seed);
    let (mut fit, mut held_out) = (Vec::new(), Vec::new());
    for (i, game) in games.iter().enumerate() {
        let target = if i % VALIDATION_EVERY == VALIDATION_EVERY - 1 {
            &mut held_out
        } else {
            &mut fit
        };
        target.extend(game_samples(game, sampling.per_game, &mut rng));
    }
    (fit, held_out)
}

/// Up to `count` quiet positions of one game, at random plies after the opening, not in
/// check.
fn game_samples(game: &Game, count: usize, rng: &mut SplitMix) -> Vec<Sample> {
    let mut board = game.start.clone();
    let mut candidates = Vec::new();
    for (ply, &m) in game.moves.iter().enumerate() {
        if ply >= OPENING_PLIES && !board.in_check() {
            candidates.push(board.clone());
        }
        board.make_move(m);
    }
    let mut chosen = Vec::new();
    while chosen.len() < count && !candidates.is_empty() {
        let pick = rng.below(candidates.len());
        chosen.push(candidates.swap_remove(pick));
    }
    chosen
        .into_iter()
        .map(|b| Sample {
            board: quiet_end(&b),
            result: game.outcome.white_score(),
        })
        .collect()
}

/// The position at the end of the capture line both sides would choose from `board`.
fn quiet_end(board: &Board) -> Board {
    let mut work = board.clone();
    let mut line = Vec::new();
    capture_search(&mut work, -i32::MAX, i32::MAX, 0, &mut line);
    let mut end = board.clone();
    for m in line {
        end.make_move(m);
    }
    end
}

/// A plain capture search with stand pat, filling `line` with its best line.
fn capture_search(
    board: &mut Board,
    mut alpha: i32,
    beta: i32,
    ply: usize,
    line: &mut Vec<Move>,
) -> i32 {
    let stand_pat = eval::evaluate(board);
    if stand_pat >= beta || ply >= QUIET_MAX_PLY {
        return stand_pat;
    }
    alpha = alpha.max(stand_pat);
    let mut moves = MoveList::new();
    board.generate_captures(&mut moves);
    let mut ordered: Vec<Move> = moves.iter().copied().collect();
    ordered.sort_by_key(|&m| std::cmp::Reverse(mvv_lva(board, m)));
    let mut best = stand_pat;
    for m in ordered {
        let undo = board.make_move(m);
        let mut child = Vec::new();
        let score = -capture_search(board, -beta, -alpha, ply + 1, &mut child);
        board.unmake_move(m, &undo);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                line.clear();
                line.push(m);
                line.extend(child);
                if score >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The evaluation of `board` from White's side.
fn white_eval(board: &Board, w: &Weights) -> f64 {
    let score = eval::evaluate_with(board, w);
    f64::from(match board.side_to_move() {
        Color::White => score,
        Color::Black => -score,
    })
}

/// The mean squared error of the predictions of `w` (scaled by `k`) over `samples`,
/// computed on `threads` threads.
pub fn error(samples: &[Sample], w: &Weights, k: f64, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    let sum: f64 = std::thread::scope(|scope| {
        let parts: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|s| {
                            let predicted =
                                1.0 / (1.0 + 10f64.powf(-k * white_eval(&s.board, w) / 400.0));
                            (s.result - predicted).powi(2)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        parts
            .into_iter()
            .map(|p| p.join().unwrap_or(f64::NAN))
            .sum()
    });
    #[allow(
        clippy::cast_precision_loss,
        reason = "sample counts are far below 2^52"
    )]
    let n = samples.len() as f64;
    sum / n
}

/// The `k` that minimises the error of `w` (golden-section search: the error is
/// unimodal in `k`).
pub fn fit_k(samples: &[Sample], w: &Weights, threads: usize) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = K_RANGE;
    while hi - lo > K_PRECISION {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(samples, w, a, threads) < error(samples, w, b, threads) {
            hi = b;
        } else {
            lo = a;
        }
    }
    f64::midpoint(lo, hi)
}

/// One pass's errors, for progress output.
#[derive(Copy, Clone, Debug)]
pub struct Progress {
    /// Passes done (0 before the first).
    pub pass: usize,
    /// Error on the fitted positions.
    pub fit_error: f64,
    /// Error on the held-out positions.
    pub held_out_error: f64,
    /// Weights changed in the pass.
    pub changes: usize,
}

/// How the local search runs.
pub struct Plan<'a> {
    /// Passes over the weights at most.
    pub passes: usize,
    /// Threads that share each error evaluation.
    pub threads: usize,
    /// Name prefixes of the weights to tune (`mobility` takes both mobility arrays); empty
    /// tunes them all. Tuning only new terms keeps the tuned ones and is much faster.
    pub only: &'a [String],
}

impl Plan<'_> {
    fn selects(&self, name: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|prefix| names(prefix, name))
    }

    /// The index in [`Weights::tunable`] and the value of each weight selected in `w`.
    fn selected(&self, w: &Weights) -> Vec<(usize, i32)> {
        w.clone()
            .tunable()
            .into_iter()
            .enumerate()
            .filter(|(_, (name, _))| self.selects(name))
            .map(|(i, (_, v))| (i, *v))
            .collect()
    }

    /// A prefix of `only` that selects none of `weights` (a misspelt one would tune
    /// nothing and look like a term already tuned out).
    pub fn prefix_selecting_nothing(&self, weights: &Weights) -> Option<&str> {
        let mut weights = weights.clone();
        let tunable = weights.tunable();
        self.only
            .iter()
            .map(String::as_str)
            .find(|prefix| !tunable.iter().any(|(name, _)| names(prefix, name)))
    }
}

/// Whether `prefix` names the weight `name` for `--only`.
fn names(prefix: &str, name: &str) -> bool {
    name.starts_with(prefix)
}

/// Texel's local search from `start`: at most `plan.passes` passes over the selected
/// weights, each moved by its step while that lowers the fitted error, ending early after
/// `PATIENCE` passes that did not lower the held-out error. Returns the weights of the
/// pass with the lowest held-out error (the start, if no pass improved it).
pub fn tune(
    fit: &[Sample],
    held_out: &[Sample],
    start: &Weights,
    k: f64,
    plan: &Plan,
    report: &mut dyn FnMut(Progress),
) -> Weights {
    let threads = plan.threads;
    let mut w = start.clone();
    let mut fit_error = error(fit, &w, k, threads);
    let mut best = (error(held_out, &w, k, threads), w.clone());
    report(Progress {
        pass: 0,
        fit_error,
        held_out_error: best.0,
        changes: 0,
    });
    // Each selected weight's index and step.
    let steps: Vec<(usize, i32)> = plan
        .selected(start)
        .into_iter()
        .map(|(i, v)| (i, step_of(v)))
        .collect();
    let mut since_best = 0;
    for pass in 1..=plan.passes {
        let mut changes = 0;
        for &(i, step) in &steps {
            for delta in [step, -step] {
                *w.tunable()[i].1 += delta;
                let e = error(fit, &w, k, threads);
                if e < fit_error {
                    fit_error = e;
                    changes += 1;
                    break;
                }
                *w.tunable()[i].1 -= delta;
            }
        }
        let held_out_error = error(held_out, &w, k, threads);
        report(Progress {
            pass,
            fit_error,
            held_out_error,
            changes,
        });
        if held_out_error < best.0 {
            best = (held_out_error, w.clone());
            since_best = 0;
        } else {
            since_best += 1;
        }
        if changes == 0 || since_best >= PATIENCE {
            break;
        }
    }
    best.1
}

/// The step of a weight starting at `value`: a twentieth of it, at least 1.
fn step_of(value: i32) -> i32 {
    (value.abs() / 20).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::DEFAULT;
    use crate::learn::pgn;

    /// Games where White keeps an extra queen and wins, and draws from level positions.
    fn games() -> Vec<Game> {
        let won = "[Result \"1-0\"]\n[FEN \"4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1\"]\n\n\
                   1. Qd1e2+ Kf7 2. Qe2f3+ Kg7 3. Qf3g4+ Kh7 4. Qg4h5+ Kg7 5. Qh5g5+ Kf7 \
                   6. Qg5f5+ Ke7 7. Qf5e5+ Kd8 8. Qe5d5+ Ke7 9. Qd5e5+ Kf7 10. Qe5f5+ Kg7 1-0\n";
        let drawn = "[Result \"1/2-1/2\"]\n[FEN \"4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1\"]\n\n\
                     1. Ke2 Ke7 2. Ke3 Ke6 3. Ke4 Kf6 4. Kf4 Kg6 5. Kg4 Kh6 6. Kh4 Kg6 \
                     7. Kg4 Kf6 8. Kf4 Ke6 9. Ke4 Kd6 10. Kd4 Ke6 1/2-1/2\n";
        let mut all = Vec::new();
        for _ in 0..5 {
            all.extend(pgn::read_games(won));
            all.extend(pgn::read_games(drawn));
        }
        all
    }

    #[test]
    fn positions_are_sampled_after_the_opening_and_held_out_by_game() {
        let games = games();
        assert!(games.iter().all(|g| g.moves.len() == 20));
        let sampling = Sampling {
            per_game: 3,
            seed: 1,
        };
        let (fit, held_out) = collect(&games, sampling);
        // Only plies 16..20 qualify: all four in the drawn games, two in the won ones
        // (Black is in check after every White move). Games 4 and 9 are held out.
        assert_eq!(fit.len(), 4 * 2 + 4 * 3);
        assert_eq!(held_out.len(), 2 + 3);
        let (again, _) = collect(&games, sampling);
        let keys = |s: &[Sample]| s.iter().map(|x| x.board.key()).collect::<Vec<_>>();
        assert_eq!(
            keys(&fit),
            keys(&again),
            "the same seed takes the same positions"
        );
    }

    #[test]
    fn the_quiet_end_of_a_position_takes_the_hanging_piece() {
        // Black's rook takes the queen and White's king takes back: both are gone at
        // the quiet end, which is worth a queen for a rook to Black.
        let board = Board::from_fen("3rk3/8/8/8/8/8/8/3QK3 b - - 0 1").expect("legal");
        let end = quiet_end(&board);
        assert_eq!(end.count(Color::White, crate::chess::PieceType::Queen), 0);
        assert_eq!(end.count(Color::Black, crate::chess::PieceType::Rook), 0);
        assert_eq!(end.side_to_move(), Color::Black);
    }

    #[test]
    fn tuning_lowers_the_error_and_fits_a_positive_scale() {
        let (fit, held_out) = collect(
            &games(),
            Sampling {
                per_game: 4,
                seed: 7,
            },
        );
        let k = fit_k(&fit, &DEFAULT, 2);
        assert!(k > K_RANGE.0 && k < K_RANGE.1, "{k}");
        let mut seen = Vec::new();
        let plan = Plan {
            passes: 3,
            threads: 2,
            only: &[],
        };
        let tuned = tune(&fit, &held_out, &DEFAULT, k, &plan, &mut |p| seen.push(p));
        assert!(seen.len() >= 2);
        assert!(seen[1].fit_error <= seen[0].fit_error);
        assert!(error(&fit, &tuned, k, 1) <= error(&fit, &DEFAULT, k, 1));
    }

    #[test]
    fn only_the_selected_weights_move() {
        let (fit, _) = collect(
            &games(),
            Sampling {
                per_game: 4,
                seed: 7,
            },
        );
        let only = ["mobility".to_string()];
        let plan = Plan {
            passes: 2,
            threads: 1,
            only: &only,
        };
        // Held out on the fitted positions themselves, so every fitted gain is kept.
        let mut tuned = tune(&fit, &fit, &DEFAULT, 1.0, &plan, &mut |_| {});
        let mut start = DEFAULT.clone();
        let mut moved = 0;
        for ((name, before), (_, after)) in start.tunable().into_iter().zip(tuned.tunable()) {
            if name.starts_with("mobility") {
                moved += usize::from(before != after);
            } else {
                assert_eq!(before, after, "{name} is not selected");
            }
        }
        assert!(moved > 0, "the selected weights were tuned");
        assert!(plan.selects("mobility_endgame[2]") && !plan.selects("king_attack[0]"));
    }
}
