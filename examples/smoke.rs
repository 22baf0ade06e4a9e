use geomrender::render::gpu::{FrameBuilder, GpuOptions, GpuRenderer};
use geomrender::render::prepare::prepare;
fn main() {
    let mut r = GpuRenderer::new(GpuOptions::default()).unwrap();
    eprintln!("{:?}", r.adapter());
    let mut fb = FrameBuilder::new((2048, 2048), 64);
    let mut frames = vec![];
    for i in 0..3 {
        let s = geomrender::scene::synthetic::diagram_scene(i, 512);
        frames.extend(fb.push(prepare(&s, Default::default()).unwrap()));
    }
    frames.extend(fb.finish());
    for f in frames {
        for img in r.render_frame(f).unwrap() {
            let bytes = geomrender::output::png::encode_png(&img).unwrap();
            std::fs::write(format!("/tmp/{}.png", img.id), bytes).unwrap();
            std::fs::write(
                format!("/tmp/{}.svg", img.id),
                geomrender::scene::svg::to_svg(&geomrender::scene::synthetic::diagram_scene(
                    img.id[10..].parse().unwrap(),
                    512,
                )),
            )
            .unwrap();
        }
    }
}
