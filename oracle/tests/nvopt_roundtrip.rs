//! nvopt lift + print with no pass preserves semantics: for every corpus
//! kernel (clang -O3 and -O0 PTX) and generator seeds 0..200, the PTX
//! interpreter gives identical outputs before and after, and the printed
//! PTX is accepted by the front end. Also pins which functions are not
//! lifted (and why), so a lift regression cannot hide as "left unchanged".

mod nvopt_support;

use nvopt_support::*;
use ptxc::nvopt::{lift_module, print_module};

fn round_trip(m: &ptxc::ptx::ast::Module) -> ptxc::ptx::ast::Module {
    print_module(&lift_module(m))
}

#[test]
fn round_trip_preserves_corpus_results() {
    let inputs = corpus_inputs();
    assert_eq!(inputs.len(), 32);
    let fails = check_all(&inputs, &round_trip);
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

#[test]
fn round_trip_preserves_generated_results() {
    let inputs = gen_inputs();
    let fails = check_all(&inputs, &round_trip);
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

#[test]
fn every_function_is_lifted() {
    let mut refused = Vec::new();
    let (mut lifted, mut bodies) = (0, 0);
    for i in all_inputs() {
        let m = ptxc::ptx::parse_checked(&i.name, &i.ptx).unwrap();
        bodies += m.functions().filter(|f| f.body.is_some()).count();
        for (_, f) in lift_module(&m).funcs {
            match f {
                Ok(_) => lifted += 1,
                Err(e) => refused.push(format!("{}: {e}", i.name)),
            }
        }
    }
    assert_eq!(refused, Vec::<String>::new());
    assert_eq!(lifted, bodies);
}
