//! Micro-benchmarks of the pieces the search spends its time in, on the
//! positions `waggle bench` searches (`bench-positions/bench.txt`): move
//! generation, making and unmaking moves, the hive's cut vertices, the
//! evaluation and the transposition table.
//!
//! `cargo bench --bench hive` (all), `cargo bench --bench hive -- eval`
//! (those whose name contains `eval`). `waggle bench` stays the signature
//! and the nodes-per-second figure of the whole search; these say which part
//! a change made faster or slower. Wall-clock times on a shared machine are
//! noisy: compare two builds in turn, as the README's measurements do.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use waggle::engine::bench;
use waggle::engine::eval::Features;
use waggle::engine::evaluate;
use waggle::engine::tt::{Bound, Tt};
use waggle::hive::game::Game;
use waggle::hive::{MoveList, Position, Rules};

/// The bench positions, loaded once.
fn positions() -> Vec<Position> {
    bench::positions()
        .map(|gs| {
            Game::from_game_string(gs, Rules::default(), true)
                .expect("the bench positions load")
                .position()
                .clone()
        })
        .collect()
}

fn legal_moves(pos: &Position) -> MoveList {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves
}

/// Every legal move of every bench position generated, per position.
fn movegen(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("generate_moves", |b| {
        b.iter(|| {
            let mut total = 0;
            for pos in &positions {
                total += legal_moves(black_box(pos)).len();
            }
            total
        })
    });
    group.finish();
}

/// Every legal move of every bench position made and unmade, per move.
fn make_unmake(c: &mut Criterion) {
    let positions = positions();
    let lists: Vec<MoveList> = positions.iter().map(legal_moves).collect();
    let total: usize = lists.iter().map(|l| l.len()).sum();
    let mut group = c.benchmark_group("position");
    group.throughput(Throughput::Elements(total as u64));
    // Each move is unmade, so every iteration starts from the same positions.
    let mut positions = positions;
    group.bench_function("make_unmake", |b| {
        b.iter(|| {
            let mut hashes = 0u64;
            for (pos, moves) in positions.iter_mut().zip(&lists) {
                for &mv in moves {
                    pos.make(mv);
                    hashes ^= pos.hash();
                    pos.unmake();
                }
            }
            hashes
        })
    });
    group.finish();
}

/// The hive's cut vertices (pinned pieces) and the full evaluation, per
/// position.
fn eval(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("cut_pieces", |b| {
        b.iter(|| {
            positions
                .iter()
                .fold(0u32, |acc, pos| acc ^ black_box(pos).cut_pieces())
        })
    });
    group.bench_function("features_extract", |b| {
        let mut features = Features::default();
        b.iter(|| {
            for pos in &positions {
                features.extract(black_box(pos));
                black_box(&features);
            }
        })
    });
    group.bench_function("evaluate", |b| {
        b.iter(|| {
            positions
                .iter()
                .fold(0i32, |acc, pos| acc.wrapping_add(evaluate(black_box(pos))))
        })
    });
    group.finish();
}

/// Probes of a 64 MiB table half filled with stores, per probe: most land on
/// a cache line the processor has not seen lately, as in the search.
fn tt(c: &mut Criterion) {
    const PROBES: u64 = 4096;
    let table = Tt::new(64);
    // A fixed sequence of keys (SplitMix64), so that every run probes the
    // same table the same way.
    let key = |i: u64| {
        let mut z = i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for i in 0..1 << 21 {
        table.store(
            key(i),
            0,
            None,
            (i % 200) as i32 - 100,
            (i % 12) as i32,
            Bound::Exact,
        );
    }
    let mut group = c.benchmark_group("tt");
    group.throughput(Throughput::Elements(PROBES));
    let mut start = 0u64;
    group.bench_function("probe", |b| {
        b.iter(|| {
            // Half the keys were stored, half were not.
            let hits = (start..start + PROBES)
                .filter(|&i| table.probe(key(i), 0).is_some())
                .count();
            start = (start + PROBES) % (1 << 22);
            hits
        })
    });
    group.finish();
}

criterion_group!(benches, movegen, make_unmake, eval, tt);
criterion_main!(benches);
