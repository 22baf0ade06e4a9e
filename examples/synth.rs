fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(2000);
    for i in 0..n {
        println!(
            "{}",
            serde_json::to_string(&geomrender::scene::synthetic::diagram_scene(i, 512)).unwrap()
        );
    }
}
