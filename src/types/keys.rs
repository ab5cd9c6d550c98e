//! The checks on the keys of one record or Map on decode (`program::Keys`): a repeated
//! key would make JS silently keep one entry of two, and record keys out of JS's own order
//! would encode back to other bytes.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::codec::text::word;
use crate::codec::varint::read_varint;
use crate::codec::{Error, Fault, Result};
use crate::program::Keys;

/// Up to this many keys are compared one by one; past it, through a hash set.
const SCAN: usize = 16;

/// The keys of one record or Map seen so far.
pub struct KeySet<'a> {
    kind: Keys,
    /// The first `SCAN` keys, in place: a record or Map of a few keys allocates nothing
    /// (a `Vec` here cost a batch of 200 small records ~10% of its decode in malloc and free).
    seen: [&'a [u8]; SCAN],
    seen_len: usize,
    set: Option<HashSet<&'a [u8], BuildHasherDefault<FxHasher>>>,
    floats: HashSet<u64, BuildHasherDefault<FxHasher>>,
    /// Record keys: their order.
    order: KeyOrder,
}

/// The order of an object's keys so far (`order`): the last array-index key, and whether
/// a non-index key came yet. A json object needs only this (src/types/json.rs finds its
/// repeats another way), not a whole `KeySet`.
#[derive(Default)]
pub struct KeyOrder {
    last_index: Option<u32>,
    named: bool,
}

impl<'a> KeySet<'a> {
    pub fn new(kind: Keys) -> Self {
        KeySet {
            kind,
            seen: [&[]; SCAN],
            seen_len: 0,
            set: None,
            floats: HashSet::default(),
            order: KeyOrder::default(),
        }
    }

    /// Whether this kind of key is checked at all.
    #[inline]
    pub fn checks(kind: Keys) -> bool {
        !matches!(kind, Keys::Objects | Keys::Js)
    }

    /// Checks the key whose bytes on the wire are `key`, starting at `offset`.
    pub fn check(&mut self, key: &'a [u8], offset: usize) -> Result<()> {
        match self.kind {
            Keys::Record => {
                // `key` is a string: its varint length, then its UTF-8.
                let (len, n) = read_varint(key, offset)?;
                debug_assert_eq!(key.len(), n + len as usize);
                let index = array_index(&key[n..]);
                self.order(index, offset)?;
                match index {
                    Some(_) => Ok(()),
                    None => self.distinct(key, offset),
                }
            }
            Keys::Bytes => self.distinct(key, offset),
            Keys::Float32 => {
                let v = f32::from_le_bytes(key.try_into().map_err(|_| bad(offset))?);
                self.float(v as f64, offset)
            }
            Keys::Float64 => {
                let v = f64::from_le_bytes(key.try_into().map_err(|_| bad(offset))?);
                self.float(v, offset)
            }
            Keys::Objects | Keys::Js => Ok(()),
        }
    }

    /// Checks the order of a record key (`KeyOrder::order`).
    pub fn order(&mut self, index: Option<u32>, offset: usize) -> Result<()> {
        self.order.order(index, offset)
    }

    /// Checks that `key` (its bytes on the wire) is not one seen before.
    pub fn distinct(&mut self, key: &'a [u8], offset: usize) -> Result<()> {
        let repeated = match &mut self.set {
            Some(set) => !set.insert(key),
            None if self.seen_len < SCAN => {
                let repeated = self.seen[..self.seen_len]
                    .iter()
                    .any(|seen| same_key(seen, key));
                self.seen[self.seen_len] = key;
                self.seen_len += 1;
                repeated
            }
            None => {
                let mut set: HashSet<&[u8], _> = self.seen.iter().copied().collect();
                let repeated = !set.insert(key);
                self.set = Some(set);
                repeated
            }
        };
        if repeated {
            return Err(Error::malformed(offset, Fault::DuplicateKey));
        }
        Ok(())
    }

    /// Map keys compare as SameValueZero: every NaN is one key, and -0 is never a key
    /// (a Map stores it as 0, which would encode differently).
    fn float(&mut self, v: f64, offset: usize) -> Result<()> {
        if v == 0.0 && v.is_sign_negative() {
            return Err(Error::malformed(
                offset,
                Fault::NonCanonical("-0 as a map key (a Map holds it as 0)"),
            ));
        }
        let bits = if v.is_nan() {
            f64::NAN.to_bits()
        } else {
            v.to_bits()
        };
        if !self.floats.insert(bits) {
            return Err(Error::malformed(offset, Fault::DuplicateKey));
        }
        Ok(())
    }
}

impl KeyOrder {
    /// Checks the order of a record key (`index`: its value if it is an array index):
    /// array indexes first, ascending, then the other keys, as JS orders them. A repeated
    /// index is found here; a repeated other key is not (`check` looks for it, or the
    /// caller does: src/types/json.rs).
    pub fn order(&mut self, index: Option<u32>, offset: usize) -> Result<()> {
        match index {
            Some(index) => {
                if self.named || self.last_index.is_some_and(|last| index <= last) {
                    // Equal to the last one is a repeat; anything else is order.
                    let fault = if self.last_index == Some(index) {
                        Fault::DuplicateKey
                    } else {
                        Fault::KeyOrder
                    };
                    return Err(Error::malformed(offset, fault));
                }
                self.last_index = Some(index);
            }
            None => self.named = true,
        }
        Ok(())
    }
}

/// The text of a string key, given its bytes on the wire (varint length, UTF-8 that
/// decode has already validated); for error paths only.
#[cold]
pub fn key_text(key: &[u8]) -> Box<str> {
    let n = read_varint(key, 0).map_or(0, |(_, n)| n);
    String::from_utf8_lossy(&key[n.min(key.len())..]).into()
}

#[cold]
fn bad(offset: usize) -> Error {
    Error::malformed(
        offset,
        Fault::NonCanonical("a float key of the wrong width"),
    )
}

/// The value of `key` if it is an array index as JS orders object keys: a canonical
/// decimal ("0", or no leading zero) below 2^32 - 1.
pub fn array_index(key: &[u8]) -> Option<u32> {
    if key.is_empty() || key.len() > 10 || (key[0] == b'0' && key.len() > 1) {
        return None;
    }
    let mut v: u64 = 0;
    for &b in key {
        if !b.is_ascii_digit() {
            return None;
        }
        v = v * 10 + (b - b'0') as u64;
    }
    (v < u32::MAX as u64).then_some(v as u32)
}

/// Whether keys `a` and `b` (bytes on the wire) are the same: under 9 bytes, by two
/// loads each (overlapping) rather than a call of memcmp.
#[inline]
pub fn same_key(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=8 => word(a) == word(b),
        _ => a == b,
    }
}

/// A fast, non-cryptographic hash (rustc's FxHash): key sets live for one decode and
/// their keys come from the message, whose size bounds the work; a flooded set only
/// costs time in proportion to that size squared over the set's buckets, and SipHash
/// measured ~3x slower here on short keys.
#[derive(Default)]
pub struct FxHasher {
    hash: u64,
}

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        self.hash = (self.hash.rotate_left(5) ^ w).wrapping_mul(K);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().unwrap_or([0; 8])));
        }
        // The last 1-7 bytes as one word: one step, not one a byte (a key's bytes, its
        // length first, are mostly under 8). Read with two loads that may overlap (4-7
        // bytes) or three single bytes (1-3), never through a copy into a zeroed word,
        // whose load waited on the copy's stores (a third of `json::record_key`'s time,
        // perf). Keys of other lengths cannot meet here: a map hashes a key's length
        // before its bytes, and a shape's keys carry theirs.
        let rest = chunks.remainder();
        let n = rest.len();
        if n >= 4 {
            let lo = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
            let hi = u32::from_le_bytes([rest[n - 4], rest[n - 3], rest[n - 2], rest[n - 1]]);
            self.add(lo as u64 | (hi as u64) << 32);
        } else if n > 0 {
            self.add(rest[0] as u64 | (rest[n / 2] as u64) << 8 | (rest[n - 1] as u64) << 16);
        }
    }

    // One step per integer (a shape's key ids, a length), where the default would hash its
    // bytes through `write`.
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> Vec<u8> {
        let mut v = vec![s.len() as u8];
        v.extend_from_slice(s.as_bytes());
        v
    }

    #[test]
    fn array_indexes_are_canonical_decimals_below_2_32_minus_1() {
        assert_eq!(array_index(b"0"), Some(0));
        assert_eq!(array_index(b"1263"), Some(1263));
        assert_eq!(array_index(b"4294967294"), Some(4294967294));
        for not in [
            &b"4294967295"[..],
            b"01",
            b"",
            b"-1",
            b"1.5",
            b"1e3",
            b"12345678901",
        ] {
            assert_eq!(array_index(not), None, "{not:?}");
        }
    }

    #[test]
    fn record_keys_must_be_distinct_with_indexes_first_and_ascending() {
        let keys: Vec<Vec<u8>> = ["0", "2", "10", "b", "a"].iter().map(|k| key(k)).collect();
        let mut set = KeySet::new(Keys::Record);
        for k in &keys {
            set.check(k, 0).unwrap();
        }
        for (order, fault) in [
            (&["1", "0"][..], Fault::KeyOrder),
            (&["a", "0"], Fault::KeyOrder),
            (&["3", "3"], Fault::DuplicateKey),
            (&["a", "b", "a"], Fault::DuplicateKey),
        ] {
            let keys: Vec<Vec<u8>> = order.iter().map(|k| key(k)).collect();
            let mut set = KeySet::new(Keys::Record);
            let err = keys
                .iter()
                .enumerate()
                .find_map(|(i, k)| set.check(k, i).err())
                .expect("rejected");
            assert_eq!(
                err.kind(),
                &crate::codec::ErrorKind::Malformed {
                    offset: order.len() - 1,
                    fault
                }
            );
        }
    }

    #[test]
    fn many_keys_go_through_the_hash_set() {
        let keys: Vec<Vec<u8>> = (0..100).map(|i| key(&format!("k{i}"))).collect();
        let mut set = KeySet::new(Keys::Bytes);
        for k in &keys {
            set.check(k, 0).unwrap();
        }
        assert_eq!(set.check(&keys[3], 9).unwrap_err().offset(), Some(9));
    }

    #[test]
    fn float_keys_compare_as_same_value_zero() {
        let (a, b) = (1.5f64.to_le_bytes(), f64::NAN.to_le_bytes());
        let other_nan = f64::from_bits(0x7ff8_0000_0000_0001).to_le_bytes();
        let mut set = KeySet::new(Keys::Float64);
        set.check(&a, 0).unwrap();
        set.check(&b, 0).unwrap();
        assert!(set.check(&other_nan, 0).is_err());
        assert!(KeySet::new(Keys::Float64)
            .check(&(-0.0f64).to_le_bytes(), 0)
            .is_err());
    }
}
