use waggle::hive::{perft::perft, GameType, Position, Rules};
fn main() {
    let d: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let gt = std::env::args().nth(2).unwrap_or("Base".into());
    let mut pos = Position::new(GameType::parse(&gt).unwrap(), Rules::default());
    let t = std::time::Instant::now();
    let n = perft(&mut pos, d);
    println!("{gt} {d} {n} {:?}", t.elapsed());
}
