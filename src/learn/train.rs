//! Training the learned evaluation (`crate::eval::nnue`) on `datagen` records, on the CPU:
//! the network in floats, the loss the squared distance between sigmoid(output) and a
//! target that blends the search's score (as sigmoid(score / 400)) with the game's result,
//! AdamW with a learning rate that halves at set shares of the run, shuffled batches
//! split over threads, held-out blocks of whole games to watch, and at the end the
//! rounding to the integer network with the loss before and after it.

use super::datagen::Record;
use crate::chess::Color;
use crate::eval::nnue::{self, Activation, INPUTS, KingLayout, Network, OUTPUT_SCALE, QA, QB};
use rand::{RngExt, SeedableRng, rngs::StdRng, seq::SliceRandom};

/// How to train.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Units of the hidden layer.
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// AdamW's step size at the start.
    pub learning_rate: f32,
    /// Weight of the game's result in the target (the rest is the search's score).
    pub result_weight: f32,
    /// Threads sharing each batch.
    pub threads: usize,
    /// Seed of the first weights and of the shuffling.
    pub seed: u64,
    /// Whether to train on each position's mirror image (files a-h swapped) too.
    pub mirror: bool,
    /// The hidden units' activation.
    pub activation: Activation,
    /// Output buckets (sets of output weights by the number of pieces on the board).
    pub buckets: usize,
    /// Sets of input weights by the king's square.
    pub kings: KingLayout,
    /// A network to start from instead of random weights (its shape, not `activation`
    /// and `buckets`, decides the run's): a network goes on learning from new games
    /// without relearning what the old ones taught it. A start without king buckets takes
    /// `kings`, each set beginning as a copy of its input weights: the sets then learn
    /// how the king's square changes what it knew. A start with fewer hidden units than
    /// `hidden` is widened to `hidden` (see `FloatNet::widened`); one with more keeps its
    /// own.
    pub start: Option<Network>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hidden: 128,
            epochs: 10,
            batch: 4_096,
            learning_rate: 1e-3,
            result_weight: 0.25,
            threads: 1,
            seed: 1,
            mirror: true,
            activation: Activation::Clipped,
            buckets: 1,
            kings: KingLayout::NONE,
            start: None,
        }
    }
}

/// One in this many blocks of positions is held out to watch the training.
const VALIDATION_EVERY: usize = 20;
/// Positions per block: a datagen file holds each game's positions together, so whole
/// blocks (a dozen games or so) keep the held-out positions out of the training games,
/// and the held-out loss measures what the network learnt, not what it memorised.
/// Small sets get smaller blocks, so that at least this many are held out.
const VALIDATION_BLOCK: usize = 1024;
const MIN_HELD_OUT_BLOCKS: usize = 8;

/// Whether the `index`th of `total` records is held out.
fn is_held_out(index: usize, total: usize) -> bool {
    let block = (total / (VALIDATION_EVERY * MIN_HELD_OUT_BLOCKS)).clamp(1, VALIDATION_BLOCK);
    (index / block) % VALIDATION_EVERY == VALIDATION_EVERY - 1
}
/// The learning rate halves at these shares of the run.
const LR_HALVINGS: [f32; 2] = [0.6, 0.85];
/// AdamW's moment decay rates, its guard against division by zero and its weight decay.
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;
const WEIGHT_DECAY: f32 = 1e-5;

/// A training position: its active inputs for the side to move and the other side, its
/// output bucket, and the target of the network's sigmoid output.
pub struct Sample {
    ours: Vec<u16>,
    theirs: Vec<u16>,
    bucket: usize,
    target: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Sample {
    /// The sample of `record` for a network of `buckets` output buckets and the king
    /// buckets `kings`, or `None` when its pieces make no position.
    pub fn of(
        record: &Record,
        result_weight: f32,
        buckets: usize,
        kings: &KingLayout,
    ) -> Option<Sample> {
        let board = record.board().ok()?;
        let [white, black] = nnue::features(&board, kings);
        let narrow = |v: Vec<usize>| {
            v.into_iter()
                .map(|f| u16::try_from(f).unwrap_or(0))
                .collect()
        };
        let (ours, theirs) = match record.side {
            Color::White => (narrow(white), narrow(black)),
            Color::Black => (narrow(black), narrow(white)),
        };
        let white_result = f32::from(record.result) / 2.0;
        let result = match record.side {
            Color::White => white_result,
            Color::Black => 1.0 - white_result,
        };
        let score = sigmoid(f32::from(record.score) / OUTPUT_SCALE as f32);
        let target = result_weight * result + (1.0 - result_weight) * score;
        Some(Sample {
            ours,
            theirs,
            bucket: nnue::output_bucket(board.piece_count(), buckets),
            target,
        })
    }

    /// The position with files a-h swapped, which is worth the same: the inputs know no
    /// castling rights, the one thing that tells a position from its mirror image. Twice
    /// the positions from the same games, for a network that learns from few. Only for
    /// king buckets that do not turn the board and give a king and its mirror image the
    /// same set (`KingLayout::is_file_symmetric`): there an input's mirror image is the
    /// input of the same set with the square's file turned.
    fn mirrored(&self) -> Sample {
        // An input's low three bits are its square's file (`nnue::feature`; a set is
        // 768 inputs, a multiple of 8).
        let flip = |inputs: &[u16]| inputs.iter().map(|&f| f ^ 7).collect();
        Sample {
            ours: flip(&self.ours),
            theirs: flip(&self.theirs),
            bucket: self.bucket,
            target: self.target,
        }
    }
}

/// A hidden unit's value after the activation.
fn activate(activation: Activation, a: f32) -> f32 {
    let clipped = a.clamp(0.0, 1.0);
    match activation {
        Activation::Clipped => clipped,
        Activation::SquaredClipped => clipped * clipped,
    }
}

/// The activation's slope at `a`: none outside 0..1, where the unit is clipped.
fn slope(activation: Activation, a: f32) -> f32 {
    if a <= 0.0 || a >= 1.0 {
        return 0.0;
    }
    match activation {
        Activation::Clipped => 1.0,
        Activation::SquaredClipped => 2.0 * a,
    }
}

/// The network in floats: the same layout as `nnue::Network`.
#[derive(Clone)]
struct FloatNet {
    hidden: usize,
    activation: Activation,
    kings: KingLayout,
    /// `INPUTS` rows of `hidden` for each set of `kings`.
    input_weights: Vec<f32>,
    hidden_bias: Vec<f32>,
    /// Per output bucket, both sides' weights.
    output_weights: Vec<f32>,
    /// Per output bucket.
    output_bias: Vec<f32>,
}

impl FloatNet {
    fn random(
        hidden: usize,
        buckets: usize,
        activation: Activation,
        kings: KingLayout,
        rng: &mut StdRng,
    ) -> FloatNet {
        // Small enough that 32 pieces' rows keep the hidden units inside 0..1 at first.
        let input_range = 1.0 / 32f32.sqrt();
        let output_range = 1.0 / (2.0 * hidden as f32).sqrt();
        FloatNet {
            hidden,
            activation,
            kings,
            input_weights: (0..kings.sets() * INPUTS * hidden)
                .map(|_| rng.random_range(-input_range..input_range) * 0.25)
                .collect(),
            hidden_bias: vec![0.25; hidden],
            output_weights: (0..buckets * 2 * hidden)
                .map(|_| rng.random_range(-output_range..output_range))
                .collect(),
            output_bias: vec![0.0; buckets],
        }
    }

    /// The float weights of an integer network: each divided by the scale `quantize`
    /// multiplies it by, so that rounding again gives the same integers.
    fn from_network(network: &Network) -> FloatNet {
        let (input_weights, hidden_bias, output_weights, output_bias) = network.weights();
        let scaled = |values: &[i16], scale: i32| -> Vec<f32> {
            values
                .iter()
                .map(|&v| f32::from(v) / scale as f32)
                .collect()
        };
        FloatNet {
            hidden: network.hidden(),
            activation: network.activation(),
            kings: *network.king_layout(),
            input_weights: scaled(input_weights, QA),
            hidden_bias: scaled(hidden_bias, QA),
            output_weights: scaled(output_weights, QB),
            output_bias: output_bias
                .iter()
                .map(|&b| b as f32 / (QA * QB) as f32)
                .collect(),
        }
    }

    /// The same network with the king buckets `kings`, every set a copy of its one set
    /// of input weights (it has no king buckets yet): it scores every position as before,
    /// up to the board turned for a king on the e-h files where `kings` mirrors.
    fn with_kings(mut self, kings: KingLayout) -> FloatNet {
        debug_assert!(self.kings.is_none());
        self.input_weights = self.input_weights.repeat(kings.sets());
        self.kings = kings;
        self
    }

    /// The same network with `hidden` units, the new ones after the old: each new unit
    /// starts with small random input weights and the random start's bias, but no weight
    /// in the output, so the network scores every position exactly as before; the output
    /// weights' gradient (the new units' values, different for each) then sets them off,
    /// and they learn what the old units could not hold.
    fn widened(self, hidden: usize, rng: &mut StdRng) -> FloatNet {
        let old = self.hidden;
        debug_assert!(hidden > old);
        let new_units = hidden - old;
        let fresh = FloatNet::random(new_units, 1, self.activation, self.kings, rng);
        let random_inputs = fresh.input_weights.into_iter();
        FloatNet {
            hidden,
            activation: self.activation,
            kings: self.kings,
            input_weights: widen_rows(&self.input_weights, old, new_units, random_inputs),
            hidden_bias: [self.hidden_bias, fresh.hidden_bias].concat(),
            output_weights: widen_rows(
                &self.output_weights,
                old,
                new_units,
                std::iter::repeat(0.0),
            ),
            output_bias: self.output_bias,
        }
    }

    /// A network of zeros the shape of `like` (for gradients and moments).
    fn zeroed(like: &FloatNet) -> FloatNet {
        let hidden = like.hidden;
        FloatNet {
            hidden,
            activation: Activation::Clipped,
            kings: like.kings,
            input_weights: vec![0.0; like.input_weights.len()],
            hidden_bias: vec![0.0; hidden],
            output_weights: vec![0.0; like.output_weights.len()],
            output_bias: vec![0.0; like.output_bias.len()],
        }
    }

    /// Where `bucket`'s output weights (the side to move's, then the other side's) lie in
    /// `output_weights`.
    fn bucket_range(&self, bucket: usize) -> std::ops::Range<usize> {
        let size = 2 * self.hidden;
        bucket * size..(bucket + 1) * size
    }

    fn parameters_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.input_weights
            .iter_mut()
            .chain(self.hidden_bias.iter_mut())
            .chain(self.output_weights.iter_mut())
            .chain(self.output_bias.iter_mut())
    }

    fn parameters(&self) -> impl Iterator<Item = &f32> {
        self.input_weights
            .iter()
            .chain(&self.hidden_bias)
            .chain(&self.output_weights)
            .chain(&self.output_bias)
    }

    fn accumulate(&self, active: &[u16]) -> Vec<f32> {
        let mut acc = self.hidden_bias.clone();
        for &f in active {
            let row = &self.input_weights[usize::from(f) * self.hidden..][..self.hidden];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        acc
    }

    /// The output (in units of `OUTPUT_SCALE` centipawns) and both accumulators.
    fn forward(&self, sample: &Sample) -> (f32, Vec<f32>, Vec<f32>) {
        let ours = self.accumulate(&sample.ours);
        let theirs = self.accumulate(&sample.theirs);
        let (w_ours, w_theirs) =
            self.output_weights[self.bucket_range(sample.bucket)].split_at(self.hidden);
        let layer = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter()
                .zip(w)
                .map(|(&a, w)| activate(self.activation, a) * w)
                .sum()
        };
        let out = layer(&ours, w_ours) + layer(&theirs, w_theirs) + self.output_bias[sample.bucket];
        (out, ours, theirs)
    }

    fn loss(&self, sample: &Sample) -> f32 {
        let (out, _, _) = self.forward(sample);
        (sigmoid(out) - sample.target).powi(2)
    }

    /// Adds the gradient of `sample`'s loss to `grad`.
    fn backward(&self, sample: &Sample, grad: &mut FloatNet) {
        let (out, ours, theirs) = self.forward(sample);
        let p = sigmoid(out);
        let d_out = 2.0 * (p - sample.target) * p * (1.0 - p);
        grad.output_bias[sample.bucket] += d_out;
        let h = self.hidden;
        let bucket = self.bucket_range(sample.bucket);
        let (out_weights, out_grad) = (
            &self.output_weights[bucket.clone()],
            &mut grad.output_weights[bucket],
        );
        let mut d_units = vec![0.0; h];
        for (side, (acc, active)) in [(&ours, &sample.ours), (&theirs, &sample.theirs)]
            .into_iter()
            .enumerate()
        {
            let out_weights = &out_weights[side * h..][..h];
            let out_grad = &mut out_grad[side * h..][..h];
            for (((&a, &w), g), d) in acc.iter().zip(out_weights).zip(out_grad).zip(&mut d_units) {
                *g += d_out * activate(self.activation, a);
                // The clipped unit passes the gradient only inside 0..1 (a slope of 0).
                *d = d_out * w * slope(self.activation, a);
            }
            // Each active input's row takes the whole layer's gradient at once: rows are
            // contiguous, so this pass is vectorised, where going unit by unit through
            // the rows would jump a row's length each step.
            add_to(&mut grad.hidden_bias, &d_units);
            for &f in active.iter() {
                add_to(&mut grad.input_weights[usize::from(f) * h..][..h], &d_units);
            }
        }
    }

    /// Rounds to the integer network.
    #[allow(
        clippy::cast_possible_truncation,
        reason = "float-to-integer `as` saturates, and the values are clamped first"
    )]
    fn quantize(&self) -> Network {
        let round = |x: f32, scale: i32| -> i16 {
            let v = (x * scale as f32).round();
            v.clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
        };
        Network::with_kings(
            self.kings,
            self.input_weights.iter().map(|&w| round(w, QA)).collect(),
            self.hidden_bias.iter().map(|&b| round(b, QA)).collect(),
            self.output_weights.iter().map(|&w| round(w, QB)).collect(),
            self.output_bias
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        )
        .expect("the float network has the integer network's sizes")
        .with_activation(self.activation)
    }
}

/// `weights` cut in rows of `old` (a row per input and king set, or per output bucket and
/// side), each row followed by the next `new_units` of `filler`.
fn widen_rows(
    weights: &[f32],
    old: usize,
    new_units: usize,
    mut filler: impl Iterator<Item = f32>,
) -> Vec<f32> {
    let mut wide = Vec::with_capacity(weights.len() / old * (old + new_units));
    for row in weights.chunks_exact(old) {
        wide.extend_from_slice(row);
        wide.extend(filler.by_ref().take(new_units));
    }
    wide
}

/// `values[i] += delta[i]` for every `i`.
fn add_to(values: &mut [f32], delta: &[f32]) {
    for (v, d) in values.iter_mut().zip(delta) {
        *v += d;
    }
}

/// The mean loss of `net` over `samples`.
fn mean_loss(net: &FloatNet, samples: &[Sample]) -> f64 {
    let total: f64 = samples.iter().map(|s| f64::from(net.loss(s))).sum();
    total / samples.len().max(1) as f64
}

/// The mean loss of the integer network over `samples` (its centipawns through the same
/// sigmoid).
fn quantized_loss(net: &Network, records: &[&Record], samples: &[Sample]) -> f64 {
    let total: f64 = records
        .iter()
        .zip(samples)
        .filter_map(|(record, sample)| {
            let board = record.board().ok()?;
            let cp = net.evaluate(&net.accumulate(&board), &board);
            let p = sigmoid(cp as f32 / OUTPUT_SCALE as f32);
            Some(f64::from((p - sample.target).powi(2)))
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The held-out loss of an integer network on the positions `train` would hold out of
/// `records` (the same split, the same targets): networks trained on different data are
/// compared on one set. `None` when no position is held out.
pub fn held_out_loss(network: &Network, records: &[Record], result_weight: f32) -> Option<f64> {
    let (buckets, kings) = (network.buckets(), network.king_layout());
    let (samples, held): (Vec<Sample>, Vec<&Record>) = records
        .iter()
        .enumerate()
        .filter(|&(i, _)| is_held_out(i, records.len()))
        .filter_map(|(_, record)| {
            Some((Sample::of(record, result_weight, buckets, kings)?, record))
        })
        .unzip();
    (!samples.is_empty()).then(|| quantized_loss(network, &held, &samples))
}

/// What a training run reports.
pub struct Trained {
    /// The integer network, of the epoch with the lowest held-out loss.
    pub network: Network,
    /// The held-out loss before training and after each epoch.
    pub validation: Vec<f64>,
    /// The held-out loss of the integer network.
    pub quantized: f64,
}

/// Trains a network on `records`, reporting each epoch through `progress`.
pub fn train(records: &[Record], settings: &Settings, mut progress: impl FnMut(&str)) -> Trained {
    let mut rng = StdRng::seed_from_u64(settings.seed);
    let mut net = match &settings.start {
        Some(network) if network.king_layout().is_none() => {
            FloatNet::from_network(network).with_kings(settings.kings)
        }
        Some(network) => FloatNet::from_network(network),
        None => FloatNet::random(
            settings.hidden,
            settings.buckets.clamp(1, nnue::MAX_BUCKETS),
            settings.activation,
            settings.kings,
            &mut rng,
        ),
    };
    if settings.start.is_some() && settings.hidden > net.hidden {
        net = net.widened(settings.hidden, &mut rng);
    }
    let (buckets, kings) = (net.output_bias.len(), net.kings);
    // A layout that turns the board for a king on the e-h files sees a position and its
    // mirror image as the same inputs: no mirror images then.
    let mirror = settings.mirror && !kings.mirrors() && kings.is_file_symmetric();
    let mut training = Vec::new();
    let (mut held, mut held_records) = (Vec::new(), Vec::new());
    for (i, record) in records.iter().enumerate() {
        let Some(sample) = Sample::of(record, settings.result_weight, buckets, &kings) else {
            continue;
        };
        if is_held_out(i, records.len()) {
            held.push(sample);
            held_records.push(record);
        } else {
            if mirror {
                training.push(sample.mirrored());
            }
            training.push(sample);
        }
    }
    let mut first_moment = FloatNet::zeroed(&net);
    let mut second_moment = FloatNet::zeroed(&net);
    let mut validation = vec![mean_loss(&net, &held)];
    // The network of the epoch with the lowest held-out loss is the one written: past it
    // the network learns its training games by heart.
    let (mut best, mut best_loss, mut best_epoch) = (net.clone(), validation[0], 0);
    progress(&format!(
        "{} training positions, {} held out; held-out loss {:.6}",
        training.len(),
        held.len(),
        validation[0]
    ));
    let mut order: Vec<usize> = (0..training.len()).collect();
    let mut step = 0i32;
    for epoch in 0..settings.epochs {
        let started = std::time::Instant::now();
        order.shuffle(&mut rng);
        let share = epoch as f32 / settings.epochs.max(1) as f32;
        let halvings = LR_HALVINGS.iter().filter(|&&at| share >= at).count();
        let rate = settings.learning_rate / 2f32.powi(i32::try_from(halvings).unwrap_or(0));
        for batch in order.chunks(settings.batch.max(1)) {
            let grad = batch_gradient(&net, &training, batch, settings.threads);
            step += 1;
            adam_step(
                &mut net,
                &grad,
                &mut first_moment,
                &mut second_moment,
                rate,
                step,
                batch.len(),
            );
        }
        let loss = mean_loss(&net, &held);
        if loss < best_loss {
            (best, best_loss, best_epoch) = (net.clone(), loss, epoch + 1);
        }
        validation.push(loss);
        let speed = training.len() as f64 / started.elapsed().as_secs_f64().max(1e-3);
        progress(&format!(
            "epoch {}: held-out loss {loss:.6}, learning rate {rate:.2e}, {speed:.0} positions/s",
            epoch + 1
        ));
    }
    let network = best.quantize();
    let quantized = quantized_loss(&network, &held_records, &held);
    progress(&format!(
        "kept epoch {best_epoch}; rounded to integers: held-out loss {quantized:.6} (floats {best_loss:.6})"
    ));
    Trained {
        network,
        validation,
        quantized,
    }
}

/// The summed gradient of the samples `batch` (indices into `samples`), shared out over
/// `threads`.
fn batch_gradient(net: &FloatNet, samples: &[Sample], batch: &[usize], threads: usize) -> FloatNet {
    let threads = threads.max(1);
    let per_thread = batch.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let parts: Vec<_> = batch
            .chunks(per_thread)
            .map(|part| {
                scope.spawn(move || {
                    let mut grad = FloatNet::zeroed(net);
                    for &i in part {
                        net.backward(&samples[i], &mut grad);
                    }
                    grad
                })
            })
            .collect();
        let mut total = FloatNet::zeroed(net);
        for part in parts {
            let grad = part.join().expect("a gradient thread does not panic");
            for (t, g) in total.parameters_mut().zip(grad.parameters()) {
                *t += g;
            }
        }
        total
    })
}

/// One AdamW step on the mean gradient of a batch of `size`.
fn adam_step(
    net: &mut FloatNet,
    grad: &FloatNet,
    m: &mut FloatNet,
    v: &mut FloatNet,
    rate: f32,
    step: i32,
    size: usize,
) {
    let scale = 1.0 / size.max(1) as f32;
    let correction1 = 1.0 - BETA1.powi(step);
    let correction2 = 1.0 - BETA2.powi(step);
    let params = net.parameters_mut();
    let moments = m.parameters_mut().zip(v.parameters_mut());
    for ((w, g), (m, v)) in params.zip(grad.parameters()).zip(moments) {
        let g = g * scale;
        *m = BETA1 * *m + (1.0 - BETA1) * g;
        *v = BETA2 * *v + (1.0 - BETA2) * g * g;
        let update = (*m / correction1) / ((*v / correction2).sqrt() + EPSILON);
        *w -= rate * (update + WEIGHT_DECAY * *w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Board;
    use crate::learn::datagen::game_records;
    use crate::learn::selfplay::SelfPlay;

    fn small_data() -> Vec<Record> {
        let settings = SelfPlay {
            nodes: 300,
            seed: 21,
            evaluation: crate::eval::Evaluation::Classical,
        };
        (0..24).flat_map(|i| game_records(settings, i)).collect()
    }

    /// A network of 16 units and 4 output buckets after one epoch on `records`: a start
    /// for the tests of what a run from a network keeps.
    fn one_epoch_network(records: &[Record]) -> Network {
        let settings = Settings {
            hidden: 16,
            epochs: 1,
            batch: 256,
            threads: 2,
            activation: Activation::SquaredClipped,
            buckets: 4,
            ..Settings::default()
        };
        train(records, &settings, |_| {}).network
    }

    /// Training lowers the held-out loss on a small generated set, and the integer network
    /// loses little to rounding, with either activation and with output buckets.
    #[test]
    fn training_lowers_the_held_out_loss_and_rounding_costs_little() {
        let records = small_data();
        assert!(records.len() > 500, "{} records", records.len());
        let four = KingLayout::preset(4).unwrap().with_mirror(true);
        let kinds = [
            (Activation::Clipped, 1, KingLayout::NONE),
            (Activation::SquaredClipped, 1, KingLayout::NONE),
            (Activation::SquaredClipped, 4, KingLayout::NONE),
            (Activation::SquaredClipped, 4, four),
        ];
        for (activation, buckets, kings) in kinds {
            let settings = Settings {
                hidden: 16,
                epochs: 8,
                batch: 256,
                learning_rate: 5e-3,
                threads: 2,
                activation,
                buckets,
                kings,
                ..Settings::default()
            };
            let trained = train(&records, &settings, |_| {});
            assert_eq!(trained.network.activation(), activation);
            assert_eq!(trained.network.buckets(), buckets);
            assert_eq!(trained.network.king_layout(), &kings);
            let first = trained.validation[0];
            let last = trained.validation.iter().copied().fold(f64::MAX, f64::min);
            assert!(
                last < first * 0.9,
                "{activation}: held-out loss {first} -> {last}"
            );
            assert_eq!(
                held_out_loss(&trained.network, &records, settings.result_weight),
                Some(trained.quantized),
                "{activation}: validating the written network is the training's last word"
            );
            assert!(
                (trained.quantized - last).abs() < 0.01,
                "{activation}: floats {last}, integers {}",
                trained.quantized
            );
        }
    }

    /// A run that starts from a network starts where that network stands: its shape, its
    /// held-out loss (the float weights round back to the same integers), and with no
    /// epoch to run it gives the same network back; with epochs it goes on learning.
    #[test]
    fn a_run_from_a_network_starts_from_that_network() {
        let records = small_data();
        let first = Settings {
            hidden: 16,
            epochs: 3,
            batch: 256,
            learning_rate: 5e-3,
            threads: 2,
            activation: Activation::SquaredClipped,
            buckets: 4,
            ..Settings::default()
        };
        let network = train(&records, &first, |_| {}).network;
        assert_eq!(FloatNet::from_network(&network).quantize(), network);
        let start_loss = held_out_loss(&network, &records, first.result_weight).unwrap();
        let from = |epochs| Settings {
            // The start's shape wins over these.
            hidden: 8,
            activation: Activation::Clipped,
            buckets: 1,
            epochs,
            start: Some(network.clone()),
            ..first.clone()
        };
        let unchanged = train(&records, &from(0), |_| {});
        assert_eq!(unchanged.network, network);
        assert!(
            (unchanged.validation[0] - start_loss).abs() < 1e-3,
            "floats {} against integers {start_loss}",
            unchanged.validation[0]
        );
        let more = train(&records, &from(3), |_| {});
        assert_eq!(more.network.hidden(), 16);
        assert_eq!(more.network.buckets(), 4);
        assert_eq!(more.network.activation(), Activation::SquaredClipped);
        assert_eq!(more.validation[0], unchanged.validation[0]);
        let best = more.validation.iter().copied().fold(f64::MAX, f64::min);
        assert!(best < more.validation[0], "{:?}", more.validation);
    }

    /// A network without king buckets, given the four-set layout (every set a copy of
    /// its input weights), scores every position as before; turning the board too, it
    /// scores a position whose kings stand on the a-d files as before, and one whose
    /// kings stand on the e-h files as before its mirror image. A run from it with no
    /// epoch to run writes that network.
    #[test]
    fn a_network_takes_king_buckets_without_changing_its_scores() {
        let records = small_data();
        let plain = one_epoch_network(&records);
        let four = KingLayout::preset(4).unwrap().with_mirror(true);
        let expanded = FloatNet::from_network(&plain).with_kings(four).quantize();
        assert_eq!(expanded.king_layout(), &four);
        let unturned = FloatNet::from_network(&plain)
            .with_kings(four.with_mirror(false))
            .quantize();
        let from_plain = Settings {
            // As many units as the start has: more would widen it.
            hidden: plain.hidden(),
            epochs: 0,
            kings: four,
            start: Some(plain.clone()),
            ..Settings::default()
        };
        assert_eq!(train(&records, &from_plain, |_| {}).network, expanded);
        let score = |net: &Network, fen: &str| {
            let board = Board::from_fen(fen).unwrap();
            net.evaluate(&net.accumulate(&board), &board)
        };
        let cases = [
            // (position, its mirror image)
            (
                "2kr3r/ppp2ppp/2n5/8/3P4/2N5/PPP2PPP/2KR3R b - - 0 12",
                "r3rk2/ppp2ppp/5n2/8/4P3/5N2/PPP2PPP/R3RK2 b - - 0 12",
            ),
            (
                "8/1k6/1p6/p7/P3R3/1K6/1r6/8 w - - 0 40",
                "8/6k1/6p1/7p/3R3P/6K1/6r1/8 w - - 0 40",
            ),
        ];
        for (left, right) in cases {
            assert_eq!(score(&expanded, left), score(&plain, left), "{left}");
            assert_eq!(score(&expanded, right), score(&plain, left), "{right}");
            for fen in [left, right] {
                assert_eq!(score(&unturned, fen), score(&plain, fen), "{fen}");
            }
        }
        for record in records.iter().take(300) {
            let board = record.board().unwrap();
            let fen = board.to_fen();
            assert_eq!(score(&unturned, &fen), score(&plain, &fen), "{fen}");
        }
    }

    /// A network widened to more hidden units (with or without king sets) scores every
    /// position exactly as before, the new units' input weights are not all zero, and a
    /// run from it goes on learning.
    #[test]
    fn a_widened_network_scores_as_before_and_learns() {
        let records = small_data();
        let narrow = one_epoch_network(&records);
        let four = KingLayout::preset(4).unwrap();
        let kinged = FloatNet::from_network(&narrow).with_kings(four).quantize();
        let score = |net: &Network, board: &Board| net.evaluate(&net.accumulate(board), board);
        for start in [narrow, kinged] {
            let from = |epochs| Settings {
                hidden: 40,
                epochs,
                batch: 256,
                threads: 2,
                learning_rate: 5e-3,
                start: Some(start.clone()),
                ..Settings::default()
            };
            let wide = train(&records, &from(0), |_| {});
            let net = &wide.network;
            assert_eq!(net.hidden(), 40);
            assert_eq!(net.king_layout(), start.king_layout());
            assert_eq!(net.buckets(), start.buckets());
            let (inputs, _, _, _) = net.weights();
            let new_units = inputs.chunks_exact(40).map(|row| &row[16..]);
            assert!(new_units.flatten().any(|&w| w != 0), "random new inputs");
            for record in records.iter().take(300) {
                let board = record.board().unwrap();
                assert_eq!(
                    score(net, &board),
                    score(&start, &board),
                    "{}",
                    board.to_fen()
                );
            }
            let more = train(&records, &from(3), |_| {});
            assert_eq!(more.validation[0], wide.validation[0]);
            let best = more.validation.iter().copied().fold(f64::MAX, f64::min);
            assert!(best < more.validation[0], "{:?}", more.validation);
        }
    }

    /// A sample's mirror image is the sample of the mirrored position, for either side to
    /// move, without king buckets and with the four sets (not turning the board).
    #[test]
    fn a_mirrored_sample_is_the_sample_of_the_mirrored_position() {
        use crate::learn::pgn::Outcome;
        let cases = [
            // (name, position, the same with files a-h swapped)
            (
                "Italian game, White to move",
                "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w - - 4 4",
                "rn1kqb1r/ppp1pppp/5n2/3p1b2/3P1B2/2N5/PPP1PPPP/R2KQBNR w - - 4 4",
            ),
            (
                "rook ending, Black to move",
                "8/5k2/1p6/p7/P3R3/6K1/1r6/8 b - - 0 40",
                "8/2k5/6p1/7p/3R3P/1K6/6r1/8 b - - 0 40",
            ),
        ];
        let sorted = |mut v: Vec<u16>| {
            v.sort_unstable();
            v
        };
        let layouts = [KingLayout::NONE, KingLayout::preset(4).unwrap()];
        for ((name, fen, mirror_fen), kings) in cases.iter().flat_map(|c| layouts.map(|k| (c, k))) {
            assert!(kings.is_file_symmetric());
            let sample = |fen| {
                let record = Record::new(&Board::from_fen(fen).unwrap(), 35, Outcome::Draw);
                Sample::of(&record, 0.25, 8, &kings).unwrap()
            };
            let (plain, mirror) = (sample(fen).mirrored(), sample(mirror_fen));
            assert_eq!(sorted(plain.ours), sorted(mirror.ours), "{name}");
            assert_eq!(sorted(plain.theirs), sorted(mirror.theirs), "{name}");
            assert_eq!(plain.target, mirror.target, "{name}");
            assert_eq!(plain.bucket, mirror.bucket, "{name}");
        }
    }

    /// Whole blocks are held out, one in `VALIDATION_EVERY`, in small sets and large.
    #[test]
    fn the_held_out_share_is_whole_blocks() {
        for total in [100, 1_000, 20_000, 5_000_000] {
            let held: Vec<usize> = (0..total).filter(|&i| is_held_out(i, total)).collect();
            let share = held.len() as f64 / total as f64;
            assert!((0.03..=0.07).contains(&share), "{total}: {share}");
            let runs = held.windows(2).filter(|w| w[1] != w[0] + 1).count() + 1;
            assert!(
                runs >= MIN_HELD_OUT_BLOCKS.min(total / VALIDATION_EVERY),
                "{total}: {runs}"
            );
        }
        // A large set's blocks are long enough to hold whole games.
        assert!(!is_held_out(VALIDATION_BLOCK * 19 - 1, 5_000_000));
        assert!((0..VALIDATION_BLOCK).all(|k| is_held_out(VALIDATION_BLOCK * 19 + k, 5_000_000)));
    }

    /// The integer forward pass equals the float one within a stated bound: 10
    /// centipawns on these positions for a trained net's scale, with either activation,
    /// with one output bucket or eight (each with its own random weights).
    #[test]
    fn the_integer_network_agrees_with_the_float_one() {
        let records = small_data();
        let kinds = [
            (Activation::Clipped, 1, KingLayout::NONE),
            (Activation::SquaredClipped, 1, KingLayout::NONE),
            (Activation::SquaredClipped, 8, KingLayout::NONE),
            (
                Activation::SquaredClipped,
                8,
                KingLayout::preset(4).unwrap(),
            ),
            (
                Activation::SquaredClipped,
                8,
                KingLayout::preset(4).unwrap().with_mirror(true),
            ),
        ];
        for (activation, buckets, kings) in kinds {
            let mut rng = StdRng::seed_from_u64(3);
            let net = FloatNet::random(16, buckets, activation, kings, &mut rng);
            let ints = net.quantize();
            for record in records.iter().take(200) {
                let sample = Sample::of(record, 0.0, buckets, &kings).unwrap();
                let (out, _, _) = net.forward(&sample);
                let board = record.board().unwrap();
                let cp = ints.evaluate(&ints.accumulate(&board), &board);
                let float_cp = out * OUTPUT_SCALE as f32;
                assert!(
                    (cp as f32 - float_cp).abs() <= 10.0,
                    "{activation}: {cp} against {float_cp}"
                );
            }
        }
    }
}
