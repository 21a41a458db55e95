//! Texel's error minimised by gradient descent, all the selected weights at once.
//!
//! The local search of [`super::tune`] moves one weight a step at a time and evaluates
//! every position for each try: for hundreds of weights that start at zero (a table of
//! values per square) it needs a pass per unit of movement. Here each position's
//! evaluation is written as a linear function of the selected weights around the current
//! ones. Its slope in each weight is measured once, by a central difference: the
//! evaluation is linear in most weights and nearly so in the rest (tapering, scaling,
//! caps). The error of that linear model and its gradient then cost one sweep over the
//! nonzero slopes, so Adam (Kingma and Ba, "Adam: A Method for Stochastic
//! Optimization", 2014) runs thousands of steps in seconds. The held-out positions,
//! linearised too, say when a descent stops; its rounded weights are checked with the
//! real evaluation, and the next round linearises again around them.

use super::{Plan, Progress, Sample, white_eval};
use crate::eval::Weights;
use std::f64::consts::LN_10;

/// How far each weight is moved up and down to measure a slope: wide enough that the
/// evaluation's rounding to whole units changes a slope by at most 1/16.
const PROBE: i32 = 8;
/// Adam's step size (evaluation units a step at most, roughly) and its decay rates.
const LEARNING_RATE: f64 = 1.0;
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-8;
/// Steps of one descent at most, how often it checks the held-out positions, and how
/// many checks in a row without a better held-out error end it.
const MAX_STEPS: usize = 5_000;
const CHECK_EVERY: usize = 20;
const CHECK_PATIENCE: usize = 10;

/// The positions' evaluations as linear functions of the selected weights.
struct Linear {
    /// White's evaluation at the weights the model was made around.
    base: Vec<f64>,
    /// The games' results (White's score).
    result: Vec<f64>,
    /// Per selected weight: the positions whose evaluation it changes, with the change
    /// per unit of the weight.
    slopes: Vec<Vec<(u32, f32)>>,
}

impl Linear {
    /// The model of `samples` around `w` in the weights `selected` (indices into
    /// [`Weights::tunable`]), measured on `threads` threads.
    fn around(samples: &[Sample], w: &Weights, selected: &[usize], threads: usize) -> Self {
        let probes: Vec<(Weights, Weights)> = selected
            .iter()
            .map(|&i| (shifted(w, i, PROBE), shifted(w, i, -PROBE)))
            .collect();
        let chunk = samples.len().div_ceil(threads.max(1)).max(1);
        let parts: Vec<Linear> = std::thread::scope(|scope| {
            let handles: Vec<_> = samples
                .chunks(chunk)
                .enumerate()
                .map(|(c, part)| {
                    let probes = &probes;
                    scope.spawn(move || measure(part, c * chunk, w, probes))
                })
                .collect();
            // A panic in one chunk is passed on: a model missing a chunk would number
            // its positions wrongly.
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        let mut model = Linear {
            base: Vec::with_capacity(samples.len()),
            result: Vec::with_capacity(samples.len()),
            slopes: vec![Vec::new(); selected.len()],
        };
        for part in parts {
            model.base.extend(part.base);
            model.result.extend(part.result);
            for (all, some) in model.slopes.iter_mut().zip(part.slopes) {
                all.extend(some);
            }
        }
        model
    }

    /// White's predicted evaluation of every position with the selected weights moved
    /// by `delta`.
    fn evaluations(&self, delta: &[f64]) -> Vec<f64> {
        let mut eval = self.base.clone();
        for (column, &d) in self.slopes.iter().zip(delta) {
            if d != 0.0 {
                for &(s, slope) in column {
                    eval[s as usize] += f64::from(slope) * d;
                }
            }
        }
        eval
    }

    /// The model's mean squared error with the weights moved by `delta`.
    fn error(&self, delta: &[f64], k: f64) -> f64 {
        if self.base.is_empty() {
            return 0.0;
        }
        let sum: f64 = self
            .evaluations(delta)
            .iter()
            .zip(&self.result)
            .map(|(&e, &r)| (r - win_chance(e, k)).powi(2))
            .sum();
        sum / count(self.base.len())
    }

    /// The gradient of [`Linear::error`] in the moved weights.
    fn gradient(&self, delta: &[f64], k: f64) -> Vec<f64> {
        let n = count(self.base.len().max(1));
        // d error / d eval of each position: the chain rule through the logistic, whose
        // slope is p(1 − p)·ln 10·k/400.
        let outer: Vec<f64> = self
            .evaluations(delta)
            .iter()
            .zip(&self.result)
            .map(|(&e, &r)| {
                let p = win_chance(e, k);
                2.0 * (p - r) * p * (1.0 - p) * LN_10 * k / 400.0 / n
            })
            .collect();
        self.slopes
            .iter()
            .map(|column| {
                column
                    .iter()
                    .map(|&(s, slope)| f64::from(slope) * outer[s as usize])
                    .sum()
            })
            .collect()
    }
}

/// The slopes of one chunk of positions, numbered from `first`.
fn measure(part: &[Sample], first: usize, w: &Weights, probes: &[(Weights, Weights)]) -> Linear {
    let mut slopes = vec![Vec::new(); probes.len()];
    for (n, sample) in part.iter().enumerate() {
        let Ok(index) = u32::try_from(first + n) else {
            break;
        };
        for (column, (up, down)) in slopes.iter_mut().zip(probes) {
            let rise = white_eval(&sample.board, up) - white_eval(&sample.board, down);
            if rise != 0.0 {
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "a slope is a small number; f32 keeps it to 7 digits"
                )]
                let slope = (rise / f64::from(2 * PROBE)) as f32;
                column.push((index, slope));
            }
        }
    }
    Linear {
        base: part.iter().map(|s| white_eval(&s.board, w)).collect(),
        result: part.iter().map(|s| s.result).collect(),
        slopes,
    }
}

/// `w` with its tunable weight `index` moved by `by`.
fn shifted(w: &Weights, index: usize, by: i32) -> Weights {
    let mut moved = w.clone();
    if let Some((_, value)) = moved.tunable().into_iter().nth(index) {
        *value = value.saturating_add(by);
    }
    moved
}

/// The expected score of White at evaluation `eval` (Texel's logistic, scale `k`).
fn win_chance(eval: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

fn count(n: usize) -> f64 {
    #[allow(
        clippy::cast_precision_loss,
        reason = "sample counts are far below 2^52"
    )]
    let n = n as f64;
    n
}

/// Adam on the linear models from zero movement: the movement with the lowest held-out
/// error, checked every `CHECK_EVERY` steps. The fitted error has the penalty
/// `penalty · Σ (moved + delta)²` added, `moved` being how far each weight already is
/// from where the tuning started.
fn descend(fit: &Linear, held_out: &Linear, k: f64, penalty: f64, moved: &[f64]) -> Vec<f64> {
    let size = fit.slopes.len();
    let mut delta = vec![0.0; size];
    let (mut first_moment, mut second_moment) = (vec![0.0; size], vec![0.0; size]);
    let mut best = (held_out.error(&delta, k), delta.clone());
    let mut since_best = 0;
    for step in 1..=MAX_STEPS {
        let mut gradient = fit.gradient(&delta, k);
        for ((g, &d), &m) in gradient.iter_mut().zip(&delta).zip(moved) {
            *g += 2.0 * penalty * (m + d);
        }
        let t = i32::try_from(step).unwrap_or(i32::MAX);
        let (fix1, fix2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
        for j in 0..size {
            first_moment[j] = BETA1 * first_moment[j] + (1.0 - BETA1) * gradient[j];
            second_moment[j] = BETA2 * second_moment[j] + (1.0 - BETA2) * gradient[j].powi(2);
            let (m, v) = (first_moment[j] / fix1, second_moment[j] / fix2);
            delta[j] -= LEARNING_RATE * m / (v.sqrt() + EPSILON);
        }
        if step % CHECK_EVERY == 0 {
            let e = held_out.error(&delta, k);
            if e < best.0 {
                best = (e, delta.clone());
                since_best = 0;
            } else {
                since_best += 1;
                if since_best >= CHECK_PATIENCE {
                    break;
                }
            }
        }
    }
    best.1
}

/// The error a weight adds by moving `PENALTY_SPAN` units from its start, per unit of
/// the `penalty` of [`tune`] (a millionth: a held-out gain worth having is a hundred
/// times that).
pub const PENALTY_UNIT: f64 = 1e-6;
/// See [`PENALTY_UNIT`].
pub const PENALTY_SPAN: f64 = 100.0;

/// Tunes the weights `plan` selects from `start` by rounds of linearising and descending:
/// at most `plan.passes` rounds, ending at the first whose rounded weights the real
/// evaluation scores no better on the held-out positions. Returns the best weights seen
/// (the start, if no round improved on it).
///
/// `penalty` (in [`PENALTY_UNIT`]s for a move of [`PENALTY_SPAN`] units) adds the
/// square of each weight's movement to the fitted error: a weight that few positions
/// see (a rare square of a table) then stays near its start unless they agree on a
/// move, where otherwise it would follow their noise: Adam moves every weight at the
/// same pace, however rarely it counts.
pub fn tune(
    fit: &[Sample],
    held_out: &[Sample],
    start: &Weights,
    k: f64,
    plan: &Plan,
    penalty: f64,
    report: &mut dyn FnMut(Progress),
) -> Weights {
    let per_unit_squared = penalty * PENALTY_UNIT / (PENALTY_SPAN * PENALTY_SPAN);
    let (selected, start_values): (Vec<usize>, Vec<i32>) = plan.selected(start).into_iter().unzip();
    let threads = plan.threads;
    let mut best = (super::error(held_out, start, k, threads), start.clone());
    report(Progress {
        pass: 0,
        fit_error: super::error(fit, start, k, threads),
        held_out_error: best.0,
        changes: 0,
    });
    for round in 1..=plan.passes {
        let around = &best.1;
        let fit_model = Linear::around(fit, around, &selected, threads);
        let held_model = Linear::around(held_out, around, &selected, threads);
        let moved: Vec<f64> = plan
            .selected(around)
            .iter()
            .zip(&start_values)
            .map(|(&(_, now), &was)| f64::from(now - was))
            .collect();
        let delta = descend(&fit_model, &held_model, k, per_unit_squared, &moved);
        let mut next = around.clone();
        let mut changes = 0;
        {
            let mut values = next.tunable();
            for (&i, &d) in selected.iter().zip(&delta) {
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "a move of a weight is a small number of units"
                )]
                let step = d.round() as i32;
                if step != 0 {
                    *values[i].1 = values[i].1.saturating_add(step);
                    changes += 1;
                }
            }
        }
        let held_out_error = super::error(held_out, &next, k, threads);
        report(Progress {
            pass: round,
            fit_error: super::error(fit, &next, k, threads),
            held_out_error,
            changes,
        });
        if changes == 0 || held_out_error >= best.0 {
            break;
        }
        best = (held_out_error, next);
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::DEFAULT;
    use crate::learn::pgn;
    use crate::learn::texel::{Sampling, collect};

    const SELFPLAY_GAMES: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/selfplay.pgn"
    ));

    /// Quiet positions of the twelve recorded self-play games, fitted and held out.
    fn samples() -> (Vec<Sample>, Vec<Sample>) {
        crate::eval::init();
        let games = pgn::read_games(SELFPLAY_GAMES);
        collect(
            &games,
            Sampling {
                per_game: 40,
                seed: 3,
            },
        )
    }

    fn index_of(name: &str) -> usize {
        DEFAULT
            .clone()
            .tunable()
            .iter()
            .position(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("{name} is a weight"))
    }

    #[test]
    fn the_linear_model_predicts_the_evaluation_of_moved_weights() {
        let (fit, _) = samples();
        let names = [
            "material[1]",
            "material_endgame[3]",
            "bishop_pair",
            "rook_open_file",
            "mobility[2]",
            "castled",
            "doubled_pawn",
        ];
        // Not `king_attack`: its units are squared, so only the rounds of relinearising
        // follow it.
        let selected: Vec<usize> = names.iter().map(|n| index_of(n)).collect();
        let model = Linear::around(&fit, &DEFAULT, &selected, 2);
        for (j, name) in names.iter().enumerate() {
            let mut delta = vec![0.0; names.len()];
            delta[j] = 12.0;
            let predicted = model.evaluations(&delta);
            let moved = shifted(&DEFAULT, selected[j], 12);
            let misses = fit
                .iter()
                .zip(&predicted)
                .filter(|(s, p)| (white_eval(&s.board, &moved) - **p).abs() > 2.5)
                .count();
            // Off by rounding to whole units only, at the probe and at the moved weight,
            // but for the few positions where a move of 12 crosses a threshold of the
            // evaluation (a material lead that starts the trade bonus or ends a scaling).
            assert!(
                misses * 20 <= fit.len(),
                "{name}: {misses} of {} off",
                fit.len()
            );
            assert!(
                !model.slopes[j].is_empty(),
                "{name} changes some evaluation"
            );
        }
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_error() {
        let (fit, _) = samples();
        let selected: Vec<usize> = ["material[0]", "bishop_pair", "mobility[1]"]
            .iter()
            .map(|n| index_of(n))
            .collect();
        let model = Linear::around(&fit, &DEFAULT, &selected, 1);
        let (k, at) = (1.3, [3.0, -5.0, 2.0]);
        let gradient = model.gradient(&at, k);
        for j in 0..at.len() {
            let h = 1e-3;
            let (mut up, mut down) = (at, at);
            up[j] += h;
            down[j] -= h;
            let numeric = (model.error(&up, k) - model.error(&down, k)) / (2.0 * h);
            assert!(
                (numeric - gradient[j]).abs() <= 1e-6 + 1e-3 * numeric.abs(),
                "weight {j}: {numeric} vs {}",
                gradient[j]
            );
        }
    }

    /// Results made from weights moved away from `DEFAULT` by `planted`: the positions,
    /// the names, and the weights that made them.
    fn planted_results(planted: &[(&str, i32)], k: f64) -> (Vec<Sample>, Vec<Sample>, Weights) {
        let (mut fit, mut held_out) = samples();
        let mut truth = DEFAULT.clone();
        for &(name, by) in planted {
            truth = shifted(&truth, index_of(name), by);
        }
        for s in fit.iter_mut().chain(held_out.iter_mut()) {
            s.result = win_chance(white_eval(&s.board, &truth), k);
        }
        (fit, held_out, truth)
    }

    #[test]
    fn a_penalty_holds_the_weights_near_their_start() {
        let k = 1.3;
        let planted = [("bishop_pair", 25), ("rook_open_file", -20)];
        let (fit, held_out, _) = planted_results(&planted, k);
        let only: Vec<String> = planted.iter().map(|(n, _)| (*n).to_string()).collect();
        let plan = Plan {
            passes: 10,
            threads: 2,
            only: &only,
        };
        let moved = |penalty: f64| {
            let tuned = tune(&fit, &held_out, &DEFAULT, k, &plan, penalty, &mut |_| {});
            planted
                .iter()
                .map(|&(name, _)| {
                    let index = index_of(name);
                    let value = |w: &Weights| *w.clone().tunable()[index].1;
                    value(&tuned) - value(&DEFAULT)
                })
                .collect::<Vec<i32>>()
        };
        assert_eq!(
            moved(0.0),
            vec![25, -20],
            "free, they reach the planted values"
        );
        // A move of 10 costing 0.01 of error, ten times all the error at the start.
        for (by, (name, planted)) in moved(1e6).into_iter().zip(planted) {
            assert!(
                by.abs() * 2 < planted.abs(),
                "{name} moved {by} of {planted}"
            );
        }
    }

    #[test]
    fn descent_recovers_weights_that_made_the_results() {
        // Results drawn from the logistic of an evaluation whose weights differ from
        // the start: the tuner should find those weights again.
        let k = 1.3;
        let planted = [
            ("bishop_pair", 25),
            ("rook_open_file", -20),
            ("material[1]", 30),
        ];
        let (fit, held_out, truth) = planted_results(&planted, k);
        let only: Vec<String> = planted.iter().map(|(n, _)| (*n).to_string()).collect();
        let plan = Plan {
            passes: 10,
            threads: 2,
            only: &only,
        };
        let mut seen = Vec::new();
        let mut tuned = tune(&fit, &held_out, &DEFAULT, k, &plan, 0.0, &mut |p| {
            seen.push(p)
        });
        assert!(seen.len() >= 2 && seen[1].held_out_error < seen[0].held_out_error);
        let mut truth_values = truth.clone();
        let truth_values: Vec<(String, i32)> = truth_values
            .tunable()
            .into_iter()
            .map(|(n, v)| (n, *v))
            .collect();
        for ((name, got), (_, want)) in tuned.tunable().into_iter().zip(truth_values) {
            if planted.iter().any(|(n, _)| *n == name) {
                assert!((*got - want).abs() <= 1, "{name}: {got}, planted {want}");
            } else {
                assert_eq!(*got, want, "{name} is not selected");
            }
        }
    }
}
