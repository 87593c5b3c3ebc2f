//! A GNU make jobserver client (docs/MODEL.md, Two-phase compilation: cicc reads `--jobserver-auth=R,W`
//! from `MAKEFLAGS` and throttles its per-function Phase II to the
//! build's `-j` level).
//!
//! Protocol (GNU make manual, "POSIX Jobserver Interaction"): every
//! process holds one implicit token; each further job needs a token, a
//! byte read from the jobserver (a pipe whose descriptors are named by
//! `--jobserver-auth=R,W`, older makes `--jobserver-fds=R,W`, or a named
//! pipe `--jobserver-auth=fifo:PATH` from make 4.4), and must write the
//! same byte back when done. nvopt takes the tokens it can get without
//! waiting (a blocking read could wait forever under `make -j1`, where no
//! token exists), sizes its pool as the implicit token plus those, and
//! gives them back when the pool is done ([`Tokens`]'s `Drop`). The
//! descriptors are reopened through `/proc/self/fd` so the non-blocking
//! flag stays on nvopt's own open file description, not on the pipe make
//! shares with its other jobs.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::OpenOptionsExt;

/// Where the jobserver is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Auth {
    Fds(i32, i32),
    Fifo(String),
}

/// The jobserver named in a `MAKEFLAGS` value (the last one wins, as in
/// make), or None when there is none. A malformed value is an error.
pub fn parse_makeflags(makeflags: &str) -> Result<Option<Auth>, String> {
    let mut found = None;
    for w in makeflags.split_whitespace() {
        let v = w
            .strip_prefix("--jobserver-auth=")
            .or_else(|| w.strip_prefix("--jobserver-fds="));
        let Some(v) = v else { continue };
        found = Some(if let Some(path) = v.strip_prefix("fifo:") {
            if path.is_empty() {
                return Err(format!("jobserver: empty fifo path in '{w}'"));
            }
            Auth::Fifo(path.to_string())
        } else {
            let bad = || format!("jobserver: expected R,W or fifo:PATH in '{w}'");
            let (r, wr) = v.split_once(',').ok_or_else(bad)?;
            let r: i32 = r.parse().map_err(|_| bad())?;
            let wr: i32 = wr.parse().map_err(|_| bad())?;
            if r < 0 || wr < 0 {
                // make writes -1,-1 when the jobserver is disabled for a
                // sub-make (no `+` on the recipe).
                return Ok(None);
            }
            Auth::Fds(r, wr)
        });
    }
    Ok(found)
}

/// Tokens taken from the jobserver, given back on drop.
pub struct Tokens {
    bytes: Vec<u8>,
    writer: Option<File>,
}

impl Tokens {
    /// How many tokens are held (the implicit one not counted).
    pub fn count(&self) -> usize {
        self.bytes.len()
    }

    /// No tokens: the implicit token only.
    pub fn none() -> Tokens {
        Tokens {
            bytes: Vec::new(),
            writer: None,
        }
    }
}

impl Drop for Tokens {
    fn drop(&mut self) {
        if let Some(w) = &mut self.writer {
            // Nothing more can be done if make's pipe is gone.
            let _ = w.write_all(&self.bytes);
        }
    }
}

fn open(path: &str, read: bool) -> std::io::Result<File> {
    let mut o = OpenOptions::new();
    if read {
        o.read(true).custom_flags(libc::O_NONBLOCK);
    } else {
        o.write(true);
    }
    o.open(path)
}

/// Takes up to `want` tokens without waiting. Errors name the problem
/// (cicc's "jobserver pipe problem": descriptors make did not pass
/// down, a fifo that does not exist); the caller then runs on the
/// implicit token alone.
pub fn acquire(auth: &Auth, want: usize) -> Result<Tokens, String> {
    let (rpath, wpath) = match auth {
        Auth::Fds(r, w) => (format!("/proc/self/fd/{r}"), format!("/proc/self/fd/{w}")),
        Auth::Fifo(p) => (p.clone(), p.clone()),
    };
    let problem = |e: std::io::Error| format!("jobserver pipe problem: {e}");
    let mut reader = open(&rpath, true).map_err(problem)?;
    let writer = open(&wpath, false).map_err(problem)?;
    let mut t = Tokens {
        bytes: Vec::new(),
        writer: Some(writer),
    };
    let mut b = [0u8; 1];
    while t.bytes.len() < want {
        match reader.read(&mut b) {
            Ok(1) => t.bytes.push(b[0]),
            Ok(_) => break, // end of file: make is gone
            Err(e) if e.kind() == ErrorKind::WouldBlock => break,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(problem(e)),
        }
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makeflags_forms() {
        assert_eq!(
            parse_makeflags(" -j4 --jobserver-auth=3,4").unwrap(),
            Some(Auth::Fds(3, 4))
        );
        assert_eq!(
            parse_makeflags("--jobserver-fds=5,6 -j").unwrap(),
            Some(Auth::Fds(5, 6))
        );
        assert_eq!(
            parse_makeflags("-j8 --jobserver-auth=fifo:/tmp/GMfifo1").unwrap(),
            Some(Auth::Fifo("/tmp/GMfifo1".into()))
        );
        assert_eq!(parse_makeflags("-k -s").unwrap(), None);
        assert_eq!(parse_makeflags("--jobserver-auth=-1,-1").unwrap(), None);
        assert!(parse_makeflags("--jobserver-auth=3").is_err());
        assert!(parse_makeflags("--jobserver-auth=fifo:").is_err());
    }

    #[test]
    fn tokens_are_taken_without_waiting_and_given_back() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("jobs");
        let st = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(st.success());
        let path = fifo.to_str().unwrap().to_string();
        // Hold the fifo open read-write (as make does) and put 3 tokens in.
        let mut keep = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&path)
            .unwrap();
        keep.write_all(b"abc").unwrap();
        let auth = parse_makeflags(&format!("--jobserver-auth=fifo:{path}"))
            .unwrap()
            .unwrap();
        {
            let t = acquire(&auth, 8).unwrap();
            assert_eq!(t.count(), 3);
            // None left: a second client gets nothing, and does not wait.
            assert_eq!(acquire(&auth, 8).unwrap().count(), 0);
        }
        // Given back: the same bytes are in the pipe again.
        let mut back = Vec::new();
        let mut b = [0u8; 8];
        while let Ok(n) = keep.read(&mut b) {
            if n == 0 {
                break;
            }
            back.extend_from_slice(&b[..n]);
        }
        back.sort();
        assert_eq!(back, b"abc");
        // Taking fewer than are there leaves the rest.
        keep.write_all(b"xyz").unwrap();
        assert_eq!(acquire(&auth, 2).unwrap().count(), 2);
        assert!(acquire(
            &Auth::Fifo(dir.path().join("none").to_str().unwrap().into()),
            1
        )
        .err()
        .unwrap()
        .starts_with("jobserver pipe problem"));
    }
}
