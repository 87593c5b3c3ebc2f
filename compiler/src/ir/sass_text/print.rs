//! Printing in `cuobjdump -sass` spelling and layout.

use std::fmt::{self, Write};

use super::{Guard, SassFile, SassFunction, SassInst, UndecodedInst};

impl fmt::Display for Guard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}{}", if self.negated { "!" } else { "" }, self.pred)
    }
}

impl SassInst {
    /// The instruction without guard and `;`: `BRA 0x1a0` (the control
    /// codes, printed after the `;`, are not part of it).
    pub fn body(&self) -> String {
        let mut s = String::new();
        self.write_body(&mut s);
        s
    }

    /// [`SassInst::body`], appended to `s`.
    fn write_body(&self, s: &mut String) {
        s.push_str(&self.opcode);
        for m in &self.mods {
            s.push('.');
            s.push_str(m);
        }
        for (i, op) in self.operands.iter().enumerate() {
            s.push_str(if i == 0 { " " } else { ", " });
            let _ = write!(s, "{op}");
        }
        if let Some(a) = &self.annotation {
            let _ = write!(s, " (*\"{a}\"*)");
        }
    }
}

/// Pads what `out` holds after byte `start` with spaces to `width`
/// characters on the right (`{:<width}`), or with spaces inserted at
/// `start` on the left (`{:>width}`): formatting straight into the
/// listing instead of through a `format!` string per piece.
fn pad_from(out: &mut String, start: usize, width: usize, left: bool) {
    let len = out[start..].chars().count();
    if len < width {
        let spaces = " ".repeat(width - len);
        if left {
            out.insert_str(start, &spaces);
        } else {
            out.push_str(&spaces);
        }
    }
}

/// `@!P0 BRA 0x1a0 ;`: the instruction text as cuobjdump spells it.
impl fmt::Display for SassInst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(g) = self.guard {
            write!(f, "{g} ")?;
        }
        write!(f, "{} ;", self.body())
    }
}

/// The column where encoding comments start.
const ENCODING_COL: usize = 84;

/// The encoding comments after the line `out` holds from byte `start`.
fn write_encoding(out: &mut String, start: usize, enc: u128) {
    let lo = enc as u64;
    let hi = (enc >> 64) as u64;
    pad_from(out, start, ENCODING_COL, false);
    let _ = writeln!(out, "/* {lo:#018x} */");
    let _ = writeln!(out, "{:w$}/* {hi:#018x} */", "", w = ENCODING_COL);
}

/// Prints one instruction line, `        /*0040*/              @!P0 BRA 0x1a0 ;`,
/// and its encoding lines when known.
fn write_inst_line(out: &mut String, inst: &SassInst) {
    if let Some(n) = inst.label {
        let _ = writeln!(out, ".L_x_{n}:");
    }
    let start = out.len();
    let _ = write!(out, "        /*{:04x}*/", inst.addr);
    let at = out.len();
    if let Some(g) = inst.guard {
        let _ = write!(out, "{g} ");
    }
    pad_from(out, at, 19, true);
    inst.write_body(out);
    out.push_str(" ;");
    if let Some(c) = inst.control {
        let _ = write!(out, " /*ctrl {c} */");
    }
    match inst.encoding {
        Some(enc) => {
            out.push(' ');
            write_encoding(out, start, enc);
        }
        None => out.push('\n'),
    }
}

fn write_undecoded(out: &mut String, u: &UndecodedInst) {
    if let Some(n) = u.label {
        let _ = writeln!(out, ".L_x_{n}:");
    }
    let start = out.len();
    write_encoding(out, start, u.encoding);
}

/// Prints a function: its `Function :` and `.headerflags` lines and one line
/// per instruction (with encoding lines where known), then cuobjdump's `....` separator.
pub fn print_function(f: &SassFunction) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\t\tFunction : {}", f.name);
    if let Some(flags) = &f.header_flags {
        let _ = writeln!(out, "\t.headerflags    {flags}");
    }
    let mut undecoded = f.undecoded.iter().peekable();
    for inst in &f.insts {
        while let Some(u) = undecoded.next_if(|u| u.addr < inst.addr) {
            write_undecoded(&mut out, u);
        }
        write_inst_line(&mut out, inst);
    }
    for u in undecoded {
        write_undecoded(&mut out, u);
    }
    out.push_str("\t\t..........\n");
    out
}

/// Prints a whole listing; [`super::parse_file`] reads it back to `file`.
pub fn print_file(file: &SassFile) -> String {
    let mut out = String::from("\n");
    if let Some(arch) = &file.arch {
        let _ = writeln!(out, "\tcode for {arch}");
    }
    for f in &file.functions {
        out.push_str(&print_function(f));
        out.push_str("\n\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::ir::sass_text::{parse_file, print_function};

    #[test]
    fn label_lines_and_virtual_registers_round_trip() {
        let text = "\t\tFunction : k\n.L_x_0:\n        /*0000*/                   IADD3 %r1, %r0, 0x1, RZ ;\n.L_x_1:\n        /*0010*/              @%p2 BRA .L_x_0 ;\n        /*0020*/                   EXIT ;\n";
        let f = parse_file(text).unwrap();
        assert_eq!(f.functions[0].insts[0].label, Some(0));
        assert_eq!(f.functions[0].insts[1].label, Some(1));
        assert_eq!(f.functions[0].insts[2].label, None);
        assert_eq!(
            print_function(&f.functions[0]),
            format!("{text}\t\t..........\n")
        );
        // A label after the last instruction marks the end (nvdisasm).
        assert!(parse_file("\t\tFunction : k\n  /*0000*/ NOP ;\n.L_x_0:\n").is_ok());
        assert!(parse_file(".L_x_0:\n").is_err());
        assert!(parse_file("\t\tFunction : k\n.L_x_0:\n.L_x_1:\n  /*0000*/ NOP ;\n").is_err());
    }

    #[test]
    fn encoding_columns_and_guards_line_up() {
        // Encoding comments start at column 84 whether or not the line
        // has a guard; a label line comes first; undecoded words stand
        // alone at the column.
        let mut f = parse_file(
            "\t\tFunction : k\n        /*0000*/              @!P0 BRA 0x10 ;\n        /*0010*/                   EXIT ;\n",
        )
        .unwrap()
        .functions
        .remove(0);
        f.insts[0].encoding = Some(0x1122_3344_5566_7788_99aa_bbcc_ddee_ff00);
        f.insts[1].encoding = Some(7);
        f.insts[1].label = Some(3);
        let got = print_function(&f);
        let lines: Vec<&str> = got.lines().collect();
        let col = |l: &str| l.find("/* 0x").unwrap();
        assert_eq!(lines[1].find("@!P0").unwrap(), 30);
        assert_eq!(col(lines[1]), 84);
        assert_eq!(lines[1][84..], *"/* 0x99aabbccddeeff00 */");
        assert_eq!(lines[2], format!("{:84}/* 0x1122334455667788 */", ""));
        assert_eq!(lines[3], ".L_x_3:");
        assert_eq!(lines[4].find("EXIT").unwrap(), 35);
        assert_eq!(col(lines[4]), 84);
        assert_eq!(lines[4][84..], *"/* 0x0000000000000007 */");
    }

    #[test]
    fn layout_matches_cuobjdump() {
        let text = "\t\tFunction : k\n        /*0040*/              @!P0 BRA 0x1a0 ;\n        /*0050*/                   EXIT ;\n";
        let f = parse_file(text).unwrap();
        assert_eq!(
            print_function(&f.functions[0]),
            format!("{text}\t\t..........\n")
        );
    }
}
