//! Replay tokens: a compact, versioned text form of one execution graph,
//! from which [`crate::replay`] rebuilds exactly that execution.
//!
//! Seed 000 §3: an execution is determined by its events, `rf` and `co`;
//! the events themselves follow from the program, because every thread is
//! deterministic given what its reads return. A token therefore records
//!
//! - the **fingerprint** of the kernel and launch it was made for
//!   ([`fingerprint`]), so that replaying it against anything else is
//!   reported as a mismatch instead of producing an unrelated execution;
//! - for every thread, the `rf` source of each of its reads (and updates)
//!   in program order: the initial value or a write named by its
//!   [`EventId`];
//! - for every written location, its writes in `co` order (the location is
//!   the one those writes access, so it is not spelled out).
//!
//! Text form: `ws1-` followed by the URL-safe base64 (no padding) of the
//! bytes: fingerprint (8 bytes, little endian), LEB128 varints for the
//! counts and event names (`0` for the initial value, `1 + thread + n ×
//! index` for an event with `n` threads), and a 4-byte FNV-1a checksum of
//! everything before it.
//!
//! Invariants: `decode(encode(t)) == t`; a string that was not produced by
//! [`ReplayToken::encode`] (truncated, altered, another version) is
//! rejected with a [`TokenError`] (up to the checksum's 2⁻³² odds), never
//! decoded into a different token silently.

use crate::graph::{EventId, Graph, RfSource};
use thiserror::Error;
use warpsafe_interp::Launch;
use warpsafe_ir::Kernel;

/// The prefix of the tokens this version writes and reads.
pub const PREFIX: &str = "ws1-";

/// One execution, as [`crate::replay::replay`] needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayToken {
    /// [`fingerprint`] of the kernel and launch.
    pub fingerprint: u64,
    /// Per thread (in launch order), the source of each read in `po` order.
    pub reads: Vec<Vec<RfSource>>,
    /// Per written location, its writes in `co` order.
    pub co: Vec<Vec<EventId>>,
}

/// Why a string is not a token this version can read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TokenError {
    #[error("not a warpsafe replay token (tokens start with `{PREFIX}`)")]
    NotAToken,
    #[error(
        "a replay token of format `{0}`, which this warpsafe does not read (it reads `{PREFIX}`)"
    )]
    UnknownVersion(String),
    #[error("the replay token is corrupted ({0}); copy it again in full")]
    Corrupted(&'static str),
}

impl ReplayToken {
    /// The token of `graph`, for a kernel and launch of `fingerprint`.
    pub fn of(graph: &Graph, fingerprint: u64) -> ReplayToken {
        let reads = graph
            .events
            .iter()
            .map(|evs| {
                evs.iter()
                    .filter(|e| e.is_read())
                    .map(|e| graph.rf.get(&e.id).copied().unwrap_or(RfSource::Init))
                    .collect()
            })
            .collect();
        let co = graph
            .co
            .values()
            .filter(|ws| !ws.is_empty())
            .cloned()
            .collect();
        ReplayToken {
            fingerprint,
            reads,
            co,
        }
    }

    /// The text form (see the module docs).
    pub fn encode(&self) -> String {
        let n = self.reads.len() as u64;
        let event = |e: EventId| e.thread as u64 + n * e.index as u64;
        let mut b = self.fingerprint.to_le_bytes().to_vec();
        put(&mut b, n);
        for reads in &self.reads {
            put(&mut b, reads.len() as u64);
            for src in reads {
                put(
                    &mut b,
                    match src {
                        RfSource::Init => 0,
                        RfSource::Write(w) => 1 + event(*w),
                    },
                );
            }
        }
        put(&mut b, self.co.len() as u64);
        for ws in &self.co {
            put(&mut b, ws.len() as u64);
            for w in ws {
                put(&mut b, event(*w));
            }
        }
        let sum = fnv32(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        format!("{PREFIX}{}", base64_encode(&b))
    }

    /// Reads a token written by [`ReplayToken::encode`].
    pub fn decode(text: &str) -> Result<ReplayToken, TokenError> {
        let text = text.trim();
        let Some(body) = text.strip_prefix(PREFIX) else {
            return Err(match text.split_once('-') {
                Some((v, _)) if v.starts_with("ws") && v.len() <= 8 => {
                    TokenError::UnknownVersion(format!("{v}-"))
                }
                _ => TokenError::NotAToken,
            });
        };
        let bytes = base64_decode(body).ok_or(TokenError::Corrupted("not base64"))?;
        if bytes.len() < 12 {
            return Err(TokenError::Corrupted("too short"));
        }
        let (payload, sum) = bytes.split_at(bytes.len() - 4);
        let sum = u32::from_le_bytes([sum[0], sum[1], sum[2], sum[3]]);
        if fnv32(payload) != sum {
            return Err(TokenError::Corrupted("checksum mismatch"));
        }
        let mut r = Reader {
            bytes: payload,
            pos: 8,
        };
        let mut fp = [0u8; 8];
        fp.copy_from_slice(&payload[..8]);
        let fingerprint = u64::from_le_bytes(fp);
        let n = r.count()?;
        if n == 0 {
            return Err(TokenError::Corrupted("no threads"));
        }
        let event = |v: u64| EventId {
            thread: (v % n as u64) as usize,
            index: (v / n as u64) as usize,
        };
        let mut reads = Vec::with_capacity(n);
        for _ in 0..n {
            let len = r.count()?;
            let mut v = Vec::with_capacity(len);
            for _ in 0..len {
                v.push(match r.varint()? {
                    0 => RfSource::Init,
                    x => RfSource::Write(event(x - 1)),
                });
            }
            reads.push(v);
        }
        let locs = r.count()?;
        let mut co = Vec::with_capacity(locs);
        for _ in 0..locs {
            let len = r.count()?;
            let mut v = Vec::with_capacity(len);
            for _ in 0..len {
                v.push(event(r.varint()?));
            }
            co.push(v);
        }
        if r.pos != payload.len() {
            return Err(TokenError::Corrupted("trailing bytes"));
        }
        Ok(ReplayToken {
            fingerprint,
            reads,
            co,
        })
    }
}

/// A fingerprint of a kernel (its whole IR, spans included, so an edited
/// file gives another fingerprint) and a launch (dimensions, parameter
/// values, array lengths and initial contents): FNV-1a over their
/// canonical debug forms, which are deterministic (vectors and ordered
/// maps only).
pub fn fingerprint(kernel: &Kernel, launch: &Launch) -> u64 {
    let text = format!("{}\0{launch:?}\0{kernel:?}", kernel.name);
    fnv64(text.as_bytes())
}

fn fnv64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn fnv32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |h, b| {
        (h ^ u32::from(*b)).wrapping_mul(0x0100_0193)
    })
}

/// Appends `v` as an unsigned LEB128 varint.
fn put(b: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            b.push(byte);
            return;
        }
        b.push(byte | 0x80);
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn varint(&mut self) -> Result<u64, TokenError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *self
                .bytes
                .get(self.pos)
                .ok_or(TokenError::Corrupted("truncated"))?;
            self.pos += 1;
            v |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(TokenError::Corrupted("overlong number"))
    }

    /// A count, which cannot exceed the bytes left (every item takes one).
    fn count(&mut self) -> Result<usize, TokenError> {
        let v = self.varint()?;
        if v > (self.bytes.len() - self.pos) as u64 + 1 {
            return Err(TokenError::Corrupted("count out of range"));
        }
        Ok(v as usize)
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 3);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, b)| acc | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let digit = |c: u8| ALPHABET.iter().position(|a| *a == c).map(|p| p as u32);
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.as_bytes().chunks(4) {
        if chunk.len() == 1 {
            return None;
        }
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            n |= digit(*c)? << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
        // The unused low bits of a short chunk must be zero (canonical).
        if chunk.len() < 4 && n & ((1 << (8 * (3 - (chunk.len() - 1)))) - 1) != 0 {
            return None;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ReplayToken {
        ReplayToken {
            fingerprint: 0x0123_4567_89ab_cdef,
            reads: vec![
                vec![
                    RfSource::Init,
                    RfSource::Write(EventId {
                        thread: 1,
                        index: 200,
                    }),
                ],
                vec![],
                vec![RfSource::Write(EventId {
                    thread: 2,
                    index: 0,
                })],
            ],
            co: vec![vec![
                EventId {
                    thread: 0,
                    index: 3,
                },
                EventId {
                    thread: 2,
                    index: 0,
                },
            ]],
        }
    }

    #[test]
    fn tokens_round_trip() {
        let t = sample();
        let text = t.encode();
        assert!(text.starts_with("ws1-"), "{text}");
        assert_eq!(ReplayToken::decode(&text), Ok(t));
    }

    #[test]
    fn base64_round_trips_every_length() {
        let data: Vec<u8> = (0..=255u8).collect();
        for len in 0..40 {
            let enc = base64_encode(&data[..len]);
            assert_eq!(base64_decode(&enc).as_deref(), Some(&data[..len]));
        }
    }

    #[test]
    fn any_altered_character_is_detected() {
        let text = sample().encode();
        for i in PREFIX.len()..text.len() {
            let mut b = text.clone().into_bytes();
            b[i] = if b[i] == b'A' { b'B' } else { b'A' };
            let altered = String::from_utf8(b).expect("ascii");
            assert!(
                ReplayToken::decode(&altered).is_err(),
                "altering position {i} went unnoticed"
            );
        }
        for len in PREFIX.len()..text.len() {
            assert!(ReplayToken::decode(&text[..len]).is_err(), "cut at {len}");
        }
    }

    #[test]
    fn fingerprints_cover_array_lengths_and_contents() {
        use warpsafe_interp::Value;
        use warpsafe_ir::ArrayId;
        let k = Kernel {
            name: "k".into(),
            template_args: Vec::new(),
            params: Vec::new(),
            vars: Vec::new(),
            arrays: Vec::new(),
            body: Vec::new(),
            launch: Default::default(),
            span: warpsafe_ir::Span::new(warpsafe_source::FileId(0), 0, 0),
            volatile_read_as: None,
        };
        let base = Launch::new([1, 1, 1], [2, 1, 1]);
        let with_len = base.clone().with_array_len(ArrayId(0), 4);
        let with_init = base
            .clone()
            .with_array_init(ArrayId(0), vec![Value::I32(1)]);
        let other_init = base
            .clone()
            .with_array_init(ArrayId(0), vec![Value::I32(2)]);
        let prints = [&base, &with_len, &with_init, &other_init].map(|l| fingerprint(&k, l));
        for i in 0..prints.len() {
            for j in 0..i {
                assert_ne!(prints[i], prints[j], "launches {i} and {j}");
            }
        }
    }

    #[test]
    fn other_strings_and_versions_are_named() {
        assert_eq!(ReplayToken::decode("hello"), Err(TokenError::NotAToken));
        assert_eq!(
            ReplayToken::decode("ws2-AAAA"),
            Err(TokenError::UnknownVersion("ws2-".into()))
        );
    }
}
