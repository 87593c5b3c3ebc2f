//! Parsing `cuobjdump -sass` listings and single instruction texts.

use std::collections::{HashMap, HashSet};

use super::lexer::Cursor;
use super::operand::{parse_operand, pred_from_word};
use super::{Guard, SassError, SassFile, SassFunction, SassInst, UndecodedInst};
use crate::ir::control::Control;

/// Parses one instruction text such as `@!P0 BRA 0x1a0 ;` (the trailing `;`
/// is optional here). The address is set to 0.
pub fn parse_inst(text: &str) -> Result<SassInst, SassError> {
    let mut c = Cursor::new(text, 1);
    c.skip_ws();
    let mut inst = inst_body(&mut c, 0, false)?;
    c.skip_ws();
    inst.control = control_comment(&mut c)?;
    c.skip_ws();
    if !c.at_end() {
        return Err(c.err("unexpected text after the instruction"));
    }
    Ok(inst)
}

/// Parses `[@[!]Pn ]MNEMONIC[ operands]` and the closing `;` (required when
/// `need_semi`), leaving the cursor after it.
fn inst_body(c: &mut Cursor<'_>, addr: u32, need_semi: bool) -> Result<SassInst, SassError> {
    let mut guard = None;
    if c.eat(b'@') {
        let negated = c.eat(b'!');
        let s = c.pos();
        let w = c.name();
        let pred = pred_from_word(w)
            .ok_or_else(|| c.err_at(s, format!("expected a guard predicate, found `{w}`")))?;
        guard = Some(Guard { pred, negated });
        if !c.skip_ws() {
            return Err(c.err("expected a space after the guard"));
        }
    }
    let s = c.pos();
    if !c.peek().is_some_and(|b| b.is_ascii_uppercase()) {
        return Err(c.err("expected a mnemonic"));
    }
    let opcode = c.word().to_string();
    let mut mods = Vec::new();
    while c.eat(b'.') {
        let m = c.word();
        if m.is_empty() {
            return Err(c.err("expected a modifier after `.`"));
        }
        mods.push(m.to_string());
    }
    if !c.peek().is_none_or(|b| matches!(b, b' ' | b'\t' | b';')) {
        return Err(c.err_at(s, "malformed mnemonic"));
    }
    let mut operands = Vec::new();
    c.skip_ws();
    if !(c.at_end() || c.peek() == Some(b';')) {
        loop {
            operands.push(parse_operand(c)?);
            c.skip_ws();
            if !c.eat(b',') {
                break;
            }
            c.skip_ws();
        }
    }
    let mut annotation = None;
    if c.eat_str("(*\"") {
        // nvdisasm's annotation, e.g. `(*"BRANCH_TARGETS .L_x_10,.L_x_3"*)`.
        let text = c.take_while(|b| b != b'"');
        if !c.eat_str("\"*)") {
            return Err(c.err("unterminated `(*\"...\"*)` annotation"));
        }
        annotation = Some(text.to_string());
        c.skip_ws();
    }
    if !c.eat(b';') && (need_semi || !c.at_end()) {
        return Err(c.err("expected `,` or `;`"));
    }
    Ok(SassInst {
        addr,
        guard,
        opcode,
        mods,
        operands,
        encoding: None,
        control: None,
        label: None,
        annotation,
    })
}

/// Parses a control-code comment `/*ctrl B------:R-:W-:Y:S04:U---- */` at
/// the cursor, if one starts there.
fn control_comment(c: &mut Cursor<'_>) -> Result<Option<Control>, SassError> {
    if !c.eat_str("/*ctrl ") {
        return Ok(None);
    }
    let s = c.pos();
    let text = c.take_while(|b| b != b' ' && b != b'*');
    let ctl = Control::parse(text).map_err(|e| c.err_at(s, e))?;
    c.skip_ws();
    if !c.eat_str("*/") {
        return Err(c.err("expected `*/` after the control codes"));
    }
    Ok(Some(ctl))
}

/// Parses an encoding comment `/* 0x0123456789abcdef */` at the cursor.
fn encoding_comment(c: &mut Cursor<'_>) -> Result<u64, SassError> {
    if !c.eat_str("/* 0x") {
        return Err(c.err("expected an encoding comment `/* 0x... */`"));
    }
    let digits = c.take_while(|b| b.is_ascii_hexdigit());
    if digits.len() != 16 {
        return Err(c.err("expected 16 hex digits in the encoding"));
    }
    let v = u64::from_str_radix(digits, 16).map_err(|_| c.err("bad encoding"))?;
    if !c.eat_str(" */") {
        return Err(c.err("expected ` */`"));
    }
    Ok(v)
}

/// Parses an instruction line `/*0040*/ INST ; /* 0x... */`, returning the
/// instruction and the encoding word, if present.
fn inst_line(c: &mut Cursor<'_>) -> Result<(SassInst, Option<u64>), SassError> {
    c.expect(b'/')?;
    c.expect(b'*')?;
    let s = c.pos();
    let digits = c.take_while(|b| b.is_ascii_hexdigit());
    if digits.len() < 4 || digits.bytes().any(|b| b.is_ascii_uppercase()) {
        return Err(c.err_at(s, "expected a 4+ digit lowercase hex address"));
    }
    let addr = u32::from_str_radix(digits, 16).map_err(|_| c.err_at(s, "address too large"))?;
    c.expect(b'*')?;
    c.expect(b'/')?;
    c.skip_ws();
    let mut inst = inst_body(c, addr, true)?;
    c.skip_ws();
    inst.control = control_comment(c)?;
    c.skip_ws();
    let mut lo = None;
    if !c.at_end() {
        lo = Some(encoding_comment(c)?);
        c.skip_ws();
        if !c.at_end() {
            return Err(c.err("unexpected text after the encoding"));
        }
    }
    Ok((inst, lo))
}

/// What the next encoding-only line completes.
enum Pending {
    Nothing,
    /// The high word of the last instruction's encoding.
    HiOfInst,
    /// The high word of an undecoded slot whose low word this is.
    HiOfUndecoded(u64),
}

/// The directives of `nvdisasm -c` listings that carry nothing the IR needs.
const NVDISASM_DIRECTIVES: &[&str] = &[
    ".elftype",
    ".section",
    ".sectioninfo",
    ".sectionflags",
    ".align",
    ".global",
    ".weak",
    ".type",
    ".size",
    ".other",
];

/// Whether `line` is directive `d` followed by whitespace or nothing.
fn directive_is(line: &str, d: &str) -> bool {
    line.strip_prefix(d)
        .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']))
}

/// A function name as nvdisasm prints it before `:`.
fn is_symbol(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('.')
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.'))
}

/// nvdisasm names code by symbol: `` `($k$callee) `` for a subroutine and
/// `` `(k) `` for a function's start (as in `RET.REL.NODEC R4 `(k)`).
/// Returns each symbol's address (a function's is 0; a subroutine label's
/// is the address of the instruction after it) and the lines that start
/// functions (a `NAME:` line followed by `.text.NAME:`).
fn nvdisasm_symbols(lines: &[&str]) -> (HashMap<String, u32>, HashSet<usize>) {
    let mut addrs = HashMap::new();
    let mut starts = HashSet::new();
    let mut pending: Vec<String> = Vec::new();
    for (i, raw) in lines.iter().enumerate() {
        let t = raw.trim();
        if let Some(name) = t.strip_suffix(':').filter(|n| is_symbol(n)) {
            let next = lines[i + 1..]
                .iter()
                .map(|l| l.trim())
                .find(|l| !l.is_empty());
            if next == Some(&format!(".text.{name}:")[..]) {
                starts.insert(i);
                addrs.insert(name.to_string(), 0);
            } else {
                pending.push(name.to_string());
            }
        } else if let Some(rest) = t.strip_prefix("/*").filter(|r| !r.starts_with(' ')) {
            let hex = rest.split("*/").next().unwrap_or("");
            if let Ok(a) = u32::from_str_radix(hex, 16) {
                for n in pending.drain(..) {
                    addrs.insert(n, a);
                }
            }
        }
    }
    (addrs, starts)
}

/// Replaces nvdisasm's `` `(SYMBOL) `` operands by the symbol's address.
fn resolve_symbols<'a>(line: &'a str, addrs: &HashMap<String, u32>) -> std::borrow::Cow<'a, str> {
    if !line.contains("`(") || addrs.is_empty() {
        return line.into();
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(p) = rest.find("`(") {
        out.push_str(&rest[..p]);
        let after = &rest[p + 2..];
        match after.find(')').map(|e| (&after[..e], e)) {
            Some((name, e)) if addrs.contains_key(name) => {
                out.push_str(&format!("{:#x}", addrs[name]));
                rest = &after[e + 1..];
            }
            _ => {
                out.push_str("`(");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.into()
}

/// Parses a whole `cuobjdump -sass` listing (one `code for` section), or
/// the code of an `nvdisasm -c [-hex]` listing: its section directives and
/// comments are skipped, `NAME:` starts a function, `.L_x_N:` lines label
/// the next instruction (or end the function), `` `(.L_x_N) `` operands are
/// labels and `(*"..."*)` annotations are kept.
pub fn parse_file(text: &str) -> Result<SassFile, SassError> {
    let mut file = SassFile::default();
    let mut pending = Pending::Nothing;
    let mut next_addr: u32 = 0;
    let mut last_line = 0;
    let mut label: Option<u32> = None;
    let mut pending_flags: Option<String> = None;
    let lines: Vec<&str> = text.split('\n').collect();
    let (symbols, function_starts) = nvdisasm_symbols(&lines);
    for (i, &raw) in lines.iter().enumerate() {
        let resolved = resolve_symbols(raw, &symbols);
        let raw: &str = &resolved;
        let mut c = Cursor::new(raw, i + 1);
        c.skip_ws();
        if c.at_end() {
            continue;
        }
        last_line = i + 1;
        let rest = raw.trim();
        let is_encoding = rest.starts_with("/* ");
        if !is_encoding && !matches!(pending, Pending::Nothing) {
            return Err(c.err("expected the second encoding word"));
        }
        if rest.starts_with("/*") && !is_encoding {
            let (mut inst, lo) = inst_line(&mut c)?;
            let Some(f) = file.functions.last_mut() else {
                return Err(c.err_at(0, "instruction outside a function"));
            };
            if let Some(lo) = lo {
                inst.encoding = Some(u128::from(lo));
                pending = Pending::HiOfInst;
            }
            inst.label = label.take();
            // Slots are listed in strictly increasing address order (the
            // printer interleaves undecoded slots by address).
            let last = f.insts.last().map(|i| i.addr).into_iter();
            let last = last.chain(f.undecoded.last().map(|u| u.addr)).max();
            if last.is_some_and(|a| inst.addr <= a) {
                return Err(c.err_at(0, "instruction addresses must increase"));
            }
            next_addr = inst.addr.wrapping_add(0x10);
            f.insts.push(inst);
        } else if is_encoding {
            let word = encoding_comment(&mut c)?;
            c.skip_ws();
            if !c.at_end() {
                return Err(c.err("unexpected text after the encoding"));
            }
            let Some(f) = file.functions.last_mut() else {
                return Err(c.err_at(0, "encoding outside a function"));
            };
            pending = match pending {
                Pending::Nothing => Pending::HiOfUndecoded(word),
                Pending::HiOfInst => {
                    if let Some(inst) = f.insts.last_mut() {
                        let lo = inst.encoding.unwrap_or(0);
                        inst.encoding = Some(lo | u128::from(word) << 64);
                    }
                    Pending::Nothing
                }
                Pending::HiOfUndecoded(lo) => {
                    let last = f.insts.last().map(|i| i.addr).into_iter();
                    let last = last.chain(f.undecoded.last().map(|u| u.addr)).max();
                    if last.is_some_and(|a| next_addr <= a) {
                        return Err(c.err_at(0, "instruction addresses must increase"));
                    }
                    f.undecoded.push(UndecodedInst {
                        addr: next_addr,
                        encoding: u128::from(lo) | u128::from(word) << 64,
                        label: label.take(),
                    });
                    next_addr = next_addr.wrapping_add(0x10);
                    Pending::Nothing
                }
            };
        } else if let Some(n) = rest.strip_prefix(".L_x_").and_then(|r| r.strip_suffix(':')) {
            let n = super::lexer::parse_index(n, u32::MAX)
                .ok_or_else(|| c.err("malformed label line"))?;
            if file.functions.is_empty() {
                return Err(c.err("a label line must precede an instruction"));
            }
            if label.replace(n).is_some() {
                return Err(c.err("two labels for one instruction"));
            }
        } else if rest.starts_with("//")
            || NVDISASM_DIRECTIVES.iter().any(|d| directive_is(rest, d))
            || (rest.starts_with(".text.") && rest.ends_with(':'))
        {
            // nvdisasm's comments, section directives and section labels.
        } else if let Some(flags) = rest.strip_prefix(".headerflags") {
            let flags = flags.trim_start().to_string();
            if file.functions.is_empty() {
                pending_flags = Some(flags);
            } else {
                match file.functions.last_mut() {
                    Some(f) if f.header_flags.is_none() && f.insts.is_empty() => {
                        f.header_flags = Some(flags);
                    }
                    _ => return Err(c.err("misplaced `.headerflags`")),
                }
            }
        } else if rest.strip_suffix(':').is_some_and(is_symbol) && !function_starts.contains(&i) {
            // nvdisasm: a subroutine's symbol inside a function; operands
            // naming it were resolved to its address.
        } else if let Some(name) = rest.strip_suffix(':').filter(|n| is_symbol(n)) {
            // nvdisasm: `NAME:` starts a function (a label pending from the
            // previous one marked its end).
            label = None;
            next_addr = 0;
            file.functions.push(SassFunction {
                name: name.to_string(),
                header_flags: pending_flags.clone(),
                ..SassFunction::default()
            });
        } else if let Some(name) = rest.strip_prefix("Function : ") {
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(c.err("malformed function name"));
            }
            label = None;
            next_addr = 0;
            file.functions.push(SassFunction {
                name: name.to_string(),
                ..SassFunction::default()
            });
        } else if let Some(arch) = rest.strip_prefix("code for ") {
            let ok = arch
                .strip_prefix("sm_")
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_alphanumeric()));
            if !ok {
                return Err(c.err("malformed `code for` line"));
            }
            if file.arch.is_some() || !file.functions.is_empty() {
                return Err(c.err("only one `code for` section per listing is supported"));
            }
            file.arch = Some(arch.to_string());
        } else {
            // `Fatbin elf code:` and `====` / `....` separators carry nothing.
            let fatbin = rest.starts_with("Fatbin ") && rest.ends_with(" code:");
            let separator = rest.bytes().all(|b| b == b'=') || rest.bytes().all(|b| b == b'.');
            if !fatbin && !separator {
                return Err(c.err("unrecognized line"));
            }
        }
    }
    // A label after a function's last instruction marks its end (nvdisasm).
    if !matches!(pending, Pending::Nothing) {
        let line = text
            .split('\n')
            .nth(last_line.saturating_sub(1))
            .unwrap_or("");
        return Err(SassError {
            line: last_line.max(1),
            col: line.len() + 1,
            msg: "expected the second encoding word".into(),
        });
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::sass_text::{Pred, SassOperand};

    #[test]
    fn inst_structure() {
        let i = parse_inst("@!P0 ISETP.GE.U32.AND P0, PT, R9, 0x3f, PT ;").unwrap();
        assert_eq!(
            i.guard,
            Some(Guard {
                pred: Pred::P(0),
                negated: true
            })
        );
        assert_eq!(i.opcode, "ISETP");
        assert_eq!(i.mods, ["GE", "U32", "AND"]);
        assert_eq!(i.operands.len(), 5);
        assert_eq!(i.operands[3], SassOperand::Imm(0x3f));
        assert_eq!(
            i.to_string(),
            "@!P0 ISETP.GE.U32.AND P0, PT, R9, 0x3f, PT ;"
        );
        assert_eq!(parse_inst("NOP;").unwrap().to_string(), "NOP ;");
    }

    #[test]
    fn listing_with_undecoded_slot() {
        let text = "\n\tcode for sm_90\n\t\tFunction : k\n\t.headerflags    @\"X\"\n        /*0000*/                   NOP ;  /* 0x0000000000007918 */\n          /* 0x000fc00000000000 */\n   /* 0x0000000000000001 */\n   /* 0x0000000000000002 */\n        /*0020*/                   EXIT ;  /* 0x000000000000794d */\n  /* 0x000fea0003800000 */\n\t\t..........\n";
        let f = parse_file(text).unwrap();
        assert_eq!(f.arch.as_deref(), Some("sm_90"));
        let func = &f.functions[0];
        assert_eq!(func.header_flags.as_deref(), Some("@\"X\""));
        assert_eq!(func.insts.len(), 2);
        assert_eq!(
            func.insts[0].encoding,
            Some(0x000fc00000000000_0000000000007918)
        );
        assert_eq!(func.undecoded[0].addr, 0x10);
        assert_eq!(func.undecoded[0].encoding, 2 << 64 | 1);
    }

    #[test]
    fn errors_have_line_and_column() {
        let e = parse_file("\t\tFunction : k\n        /*0000*/   MOV R1, Q2 ;").unwrap_err();
        assert_eq!((e.line, e.col), (2, 28), "{e}");
        assert_eq!(e.to_string(), "2:28: unknown operand `Q2`");
        let e = parse_file("        /*0000*/   NOP ;").unwrap_err();
        assert_eq!(e.line, 1);
        let e = parse_inst("MOV R1, R2").unwrap();
        assert_eq!(e.operands.len(), 2);
        assert!(parse_inst("MOV R1 R2 ;").is_err());
        assert!(parse_inst("mov R1 ;").is_err());
        assert!(parse_file("\t\tFunction : k\n  /*0000*/ NOP ; /* 0x0000000000000000 */").is_err());
        assert!(parse_file("hello").is_err());
        let e = parse_file("\t\tFunction : k\n  /*0010*/ NOP ;\n  /*0000*/ NOP ;\n").unwrap_err();
        assert_eq!(
            (e.line, e.msg.as_str()),
            (3, "instruction addresses must increase")
        );
    }
}
