//! The vector clocks of one CTA's threads (happens-before for race
//! detection, see `race`), stored so that a CTA-wide barrier costs O(n)
//! instead of O(n^2).
//!
//! Thread t's vector clock VC_t has one entry per thread of the CTA. Every
//! entry VC_t[u] is at most u's own clock VC_u[u] (others learn u's clock
//! only from u, through joins). So when *every* thread of the CTA meets at a
//! barrier, the join of all their clocks is simply the vector of their own
//! clocks, and afterwards every thread holds that same vector (plus its own
//! tick). Such a barrier stores that vector once as `base` and starts a new
//! generation; a thread's clock is then "`base`, with its own entry in
//! `own`" until it joins something else (an acquire, a partial barrier),
//! when it gets a private copy for the rest of the generation.
//!
//! The generation counter also tells race detection cheaply that an access
//! made in an earlier generation is ordered before every thread's present.

/// A thread's view of its own vector clock.
#[derive(Clone, Copy)]
pub struct View<'a> {
    /// The thread's own clock.
    pub own: u32,
    /// Its clock entries for the other threads (its own entry here is stale:
    /// use `own`).
    pub others: &'a [u32],
}

pub struct Clocks {
    /// Each thread's own clock.
    own: Vec<u32>,
    /// Every thread's vector clock after the last CTA-wide barrier.
    base: Vec<u32>,
    /// Private vector clocks; row t is valid iff `private_gen[t] == gen`.
    private: Vec<Vec<u32>>,
    private_gen: Vec<u32>,
    /// CTA-wide barriers so far.
    gen: u32,
}

impl Clocks {
    /// `n` threads, each with its own clock at 1 and knowing nothing of the
    /// others (the identity vectors).
    pub fn new(n: usize) -> Clocks {
        Clocks {
            own: vec![1; n],
            base: vec![0; n],
            private: vec![Vec::new(); n],
            private_gen: vec![u32::MAX; n],
            gen: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.own.len()
    }

    pub fn is_empty(&self) -> bool {
        self.own.is_empty()
    }

    /// The number of CTA-wide barriers completed: an access made when this
    /// was smaller than it is now is ordered before every thread's present.
    #[inline]
    pub fn generation(&self) -> u32 {
        self.gen
    }

    #[inline]
    pub fn view(&self, t: usize) -> View<'_> {
        let others = if self.private_gen[t] == self.gen {
            &self.private[t]
        } else {
            &self.base
        };
        View {
            own: self.own[t],
            others,
        }
    }

    /// VC_t[u].
    pub fn get(&self, t: usize, u: usize) -> u32 {
        let v = self.view(t);
        if u == t {
            v.own
        } else {
            v.others[u]
        }
    }

    /// Joins VC_t into `into` (element-wise maximum).
    pub fn join_into(&self, t: usize, into: &mut [u32]) {
        let v = self.view(t);
        for (u, (a, &b)) in into.iter_mut().zip(v.others).enumerate() {
            *a = (*a).max(if u == t { v.own } else { b });
        }
    }

    /// VC_t as a vector.
    pub fn vector(&self, t: usize) -> Vec<u32> {
        let mut out = vec![0; self.len()];
        self.join_into(t, &mut out);
        out
    }

    /// Advances thread t's own clock (after a release).
    pub fn tick(&mut self, t: usize) {
        self.own[t] += 1;
    }

    /// Gives thread t a private copy of its clock for this generation.
    fn privatize(&mut self, t: usize) -> &mut Vec<u32> {
        if self.private_gen[t] != self.gen {
            let row = &mut self.private[t];
            row.clear();
            row.extend_from_slice(&self.base);
            self.private_gen[t] = self.gen;
        }
        &mut self.private[t]
    }

    /// VC_t := VC_t joined with `from` (an acquire).
    pub fn acquire(&mut self, t: usize, from: &[u32]) {
        self.own[t] = self.own[t].max(from[t]);
        let row = self.privatize(t);
        for (a, &b) in row.iter_mut().zip(from) {
            *a = (*a).max(b);
        }
    }

    /// Synchronizes `threads`: each gets the join of their clocks and of
    /// `extra` (the clocks `bar.arrive` contributed), then advances its own
    /// clock (barriers, warp barriers).
    pub fn sync(&mut self, threads: &[usize], extra: Option<&[u32]>) {
        let n = self.len();
        if threads.len() == n {
            // Every thread of the CTA (`threads` has no duplicates): the
            // join is the vector of own clocks (see the module comment; the
            // maximum with `extra` changes nothing, kept for clarity).
            for u in 0..n {
                self.base[u] = self.own[u].max(extra.map_or(0, |e| e[u]));
            }
            for (o, &b) in self.own.iter_mut().zip(&self.base) {
                *o = b + 1;
            }
            self.gen += 1;
            return;
        }
        let mut j = extra.map_or_else(|| vec![0; n], <[u32]>::to_vec);
        for &t in threads {
            self.join_into(t, &mut j);
        }
        for &t in threads {
            self.privatize(t).copy_from_slice(&j);
            self.own[t] = j[t] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dense reference: one full vector per thread.
    struct Dense(Vec<Vec<u32>>);

    impl Dense {
        fn new(n: usize) -> Dense {
            Dense(
                (0..n)
                    .map(|t| (0..n).map(|u| u32::from(u == t)).collect())
                    .collect(),
            )
        }

        fn sync(&mut self, threads: &[usize], extra: &[u32]) {
            let mut j = extra.to_vec();
            for &t in threads {
                for (a, &b) in j.iter_mut().zip(&self.0[t]) {
                    *a = (*a).max(b);
                }
            }
            for &t in threads {
                self.0[t].copy_from_slice(&j);
                self.0[t][t] += 1;
            }
        }
    }

    fn same(c: &Clocks, d: &Dense) {
        for t in 0..c.len() {
            assert_eq!(c.vector(t), d.0[t], "thread {t}");
            for u in 0..c.len() {
                assert_eq!(c.get(t, u), d.0[t][u]);
            }
        }
    }

    /// Random sequences of barriers (full and partial), releases, acquires
    /// and arrivals give the same clocks as the dense reference.
    #[test]
    fn lazy_clocks_match_dense_vector_clocks() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut rand = move |k: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % k as u64) as usize
        };
        for n in [1usize, 2, 5, 32, 40] {
            let (mut c, mut d) = (Clocks::new(n), Dense::new(n));
            let mut objects: Vec<Vec<u32>> = vec![vec![0; n]; 3];
            for _ in 0..400 {
                match rand(6) {
                    0 => {
                        let all: Vec<usize> = (0..n).collect();
                        let extra = objects[rand(3)].clone();
                        c.sync(&all, Some(&extra));
                        d.sync(&all, &extra);
                    }
                    1 => {
                        let mut some: Vec<usize> = (0..n).filter(|_| rand(2) == 0).collect();
                        some.dedup();
                        c.sync(&some, None);
                        d.sync(&some, &vec![0; n]);
                    }
                    2 | 3 => {
                        // release into an object, then tick
                        let (t, o) = (rand(n), rand(3));
                        c.join_into(t, &mut objects[o]);
                        c.tick(t);
                        for (a, &b) in objects[o].iter_mut().zip(&d.0[t]) {
                            *a = (*a).max(b);
                        }
                        d.0[t][t] += 1;
                    }
                    _ => {
                        let (t, o) = (rand(n), rand(3));
                        c.acquire(t, &objects[o]);
                        for (a, &b) in d.0[t].iter_mut().zip(&objects[o]) {
                            *a = (*a).max(b);
                        }
                    }
                }
                same(&c, &d);
            }
        }
    }

    #[test]
    fn a_cta_wide_barrier_starts_a_generation() {
        let mut c = Clocks::new(4);
        assert_eq!(c.generation(), 0);
        c.sync(&[0, 1], None);
        assert_eq!(c.generation(), 0);
        c.sync(&[0, 1, 2, 3], None);
        assert_eq!(c.generation(), 1);
        assert_eq!(c.vector(2), vec![2, 2, 2, 1]);
    }
}
