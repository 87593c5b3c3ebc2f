//! Debug aid: compiles a PTX file with ptxc and compares the final IR with
//! the printed listing read back, instruction by instruction.
//! `cargo run --release --example roundtrip_diff -- FILE.ptx sm_80 -O3 [--maxrregcount N]`
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let src = std::fs::read_to_string(&args[0]).unwrap();
    let mut flags: Vec<String> = args[2..].to_vec();
    flags.push(format!("-arch={}", args[1]));
    let opts = ptxc::cli::parse_args(&flags).unwrap().unwrap();
    let report = ptxc::driver::compile(&args[0], &src, &opts.driver, None);
    let out = report.result.unwrap();
    let file = ptxc::ir::sass_text::parse_file(&out.sass).unwrap();
    for c in &out.functions {
        let f = file.functions.iter().find(|f| f.name == c.name).unwrap();
        let back = ptxc::ir::from_sass(f, Some(out.sm)).unwrap();
        let a: Vec<_> = c.kernel.function.insts().collect();
        let b: Vec<_> = back.insts().collect();
        println!("{}: {} vs {} instructions", c.name, a.len(), b.len());
        println!("function equal: {}", c.kernel.function == back);
        for (k, (x, y)) in c
            .kernel
            .function
            .blocks
            .iter()
            .zip(&back.blocks)
            .enumerate()
        {
            if x.label != y.label || x.insts.len() != y.insts.len() {
                println!(
                    "block {k}: ir label {} ({} insts) vs back {} ({} insts)",
                    x.label,
                    x.insts.len(),
                    y.label,
                    y.insts.len()
                );
                break;
            }
        }
        for (k, (x, y)) in a.iter().zip(&b).enumerate() {
            if x != y {
                println!("#{k}\n  ir:   {x:?}\n  back: {y:?}");
                break;
            }
        }
    }
}
