use geomrender::generate::*;
#[test]
fn show() {
    let mut opts = GenerateOptions::default();
    for (i, q) in [
        QuestionType::Side,
        QuestionType::Angle,
        QuestionType::Area,
        QuestionType::Perimeter,
    ]
    .iter()
    .enumerate()
    {
        opts.question = *q;
        opts.depth = 1..=3;
        for k in 0..3u64 {
            let t = std::time::Instant::now();
            let p = generate_one(&opts, (i as u64) * 10 + k).unwrap();
            println!(
                "--- {} depth {} {:?} ({:?})",
                p.id,
                p.params.depth,
                t.elapsed(),
                p.params.question_type
            );
            println!("Q: {}", p.question.coordinate);
            println!("A: {}", p.cot.coordinate);
            println!("Qi: {}", p.question.individual);
            println!("Ai: {}", p.cot.individual);
        }
    }
}
