//! `json`: any value `JSON.parse` can return, self-described. One type byte, then:
//!
//! | byte        | value                                                        |
//! |-------------|--------------------------------------------------------------|
//! | `00` `01` `02` | null, false, true                                         |
//! | `03`        | a number that is not a safe integer (or is -0): 8 bytes, f64 LE |
//! | `04`        | a safe integer below 0 or above 63: zigzag varint (64-bit)   |
//! | `05`        | a string of 64 bytes or more: varint byte length, UTF-8      |
//! | `06`        | an array of 32 items or more: varint count, the items        |
//! | `07`        | an object of 32 members or more: varint count, the members   |
//! | `40`-`7f`   | the integer 0-63                                             |
//! | `80`-`bf`   | a string of 0-63 bytes, then its UTF-8                       |
//! | `c0`-`df`   | an array of 0-31 items, then the items                       |
//! | `e0`-`ff`   | an object of 0-31 members, then the members                  |
//!
//! A member is its key (varint byte length, UTF-8) then its value. Bytes `08`-`3f` are
//! malformed, and so is any value in a longer form than the one above (one value, one
//! encoding), a non-finite number, a repeated key, or keys out of JS's order.
//!
//! Tape, both ways, a token per value: 0 null, 1 false, 2 true, 3 number (then the
//! number), 4 string (then its length in UTF-16 units, the text following in the message's
//! text; on encode, a long one-byte string's is `LATIN1_SLOT` plus its length, in the
//! Latin-1 text: `TapeIn::text`), 5 array (then the count, then the items), 6 object (then the count, then per
//! member its key and its value); on decode also 8, an array of numbers only (then the
//! count, then the numbers, no token each: canada's coordinates, mesh's vertices). On encode a key is its length in units; on decode it is
//! a key id first (`KeyIds`): the id of a key met before in this message's json values,
//! or -1 (a key not kept) or -2 - id (a new key, which takes the next id), each of these
//! two then the key's text slot. JS keeps each new key's string (and whether
//! Object.prototype has it) under its id, so a key that repeats is made once per message,
//! not once per object (nor per item of an array of `t.json()`): a string made per
//! member cost V8 a string-table lookup on every store (twitter through `t.json()`: ~30%
//! of its decode).
//!
//! On decode an object of 4 to 64 members also has a shape slot after its count
//! (`KeyIds::shape`): when all its keys are kept and an object that ended before it
//! began had the same keys in the same order, that object's shape id; the first object of
//! a shape gets the new id and a hash of its keys instead; else -1. JS builds an object of
//! a known shape with a generated object literal of its keys (lib/json-tape.js,
//! `builder`), which V8 makes with its final hidden class at once: built by keyed stores,
//! an object of more than ~16 keys went to dictionary mode (twitter through `t.json()`:
//! ~30% of its decode in keyed stores and dictionary inserts).

use super::integer::MAX_SAFE;
use super::keys::{array_index, key_text, same_key, FxHasher, KeyOrder, KeySet};
use super::{Decoding, Encoding, Entry, Node};
use crate::codec::text::write_chars;
use crate::codec::varint::{unzigzag64, zigzag64};
use crate::codec::{Error, Fault, LimitKind, Result, Segment};
use crate::program::Keys;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The keys of one message's json values met so far on decode (their bytes on the wire, length
/// included), with their ids. At most `MAX_KEY_IDS` keys of at most `MAX_KEY_BYTES` bytes
/// are kept, so a message of distinct or long keys costs bounded work (and a key set
/// flooded with hash collisions at most that many comparisons per key). A kept key also
/// finds its own repeats within an object: it remembers the last open object it was in
/// (`marks`; an object inside puts back what it changed as it ends, `undo`).
#[derive(Default)]
pub struct KeyIds<'a> {
    keys: HashMap<&'a [u8], Kept, BuildHasherDefault<FxHasher>>,
    /// Objects of this message's json values so far: the serial number of the current one (a u64:
    /// each object takes a byte of the input, which may be 4 GiB).
    objects: u64,
    /// The shapes of this message's objects so far (their key ids in order), with
    /// their shape ids and where the object that defined each ends on the tape: at most
    /// `MAX_SHAPES`, each of `MIN_SHAPE_KEYS` to `MAX_SHAPE_KEYS` kept keys.
    shapes: HashMap<Vec<u32>, (u32, usize), BuildHasherDefault<FxHasher>>,
    /// The key ids of the objects being read, innermost last.
    ids: Vec<u32>,
    /// Each kept key's bytes, by id.
    names: Vec<&'a [u8]>,
    /// Each kept key's mark, by id: the serial number of the last object it was a key of
    /// among the objects still open (or of a closed one, which no open object has).
    marks: Vec<u64>,
    /// The marks the objects being read changed, with what they were before, innermost
    /// last: an object puts them back as it ends, so that a key its parent had before it
    /// is still marked as the parent's (fuzz finding: `{"a":{"a":0},"a":1}` was accepted).
    undo: Vec<(u32, u64)>,
    /// The key that came after each kept key (by id + 1; 0: a first key) in the last
    /// record or json object that had it: they mostly repeat their keys in the same
    /// order, and a key found by comparing it with the one predicted needs no hashing nor
    /// probing (`record_key`, json objects in `value`). `NO_KEY` where none is known.
    next: Vec<u32>,
    /// Each kept key's value if it is an array index, by id (as `Kept::index`), for a key
    /// found by prediction.
    indexes: Vec<Option<u32>>,
    /// The last shape found or defined (`shape`): its key ids, id and end.
    last_shape: Vec<u32>,
    last: (u32, usize),
}

/// `KeyIds::next` where no key is predicted; as a previous key (`record_key`'s `prev`), a
/// record's start (its `wrapping_add(1)` is slot 0).
pub const NO_KEY: u32 = u32::MAX;

struct Kept {
    id: u32,
    /// The key's value if it is an array index (`keys::array_index`).
    index: Option<u32>,
}

impl<'a> KeyIds<'a> {
    /// Predicts key `id` after `prev` (`NO_KEY`: an object's or record's first key), and
    /// makes it `prev`.
    #[inline(always)]
    fn predict(&mut self, prev: &mut u32, id: u32) {
        let after = prev.wrapping_add(1) as usize;
        if after >= self.next.len() {
            self.next.resize(after + 1, NO_KEY);
        }
        self.next[after] = id;
        *prev = id;
    }

    /// Kept key `key` (its bytes on the wire) if it is one, with its array index: first
    /// the key that followed `prev` last time, else the table's. It becomes `prev`.
    #[inline(always)]
    fn find(&mut self, key: &[u8], prev: &mut u32) -> Option<(u32, Option<u32>)> {
        let guess = self
            .next
            .get(prev.wrapping_add(1) as usize)
            .copied()
            .unwrap_or(NO_KEY);
        if guess != NO_KEY && same_key(self.names[guess as usize], key) {
            *prev = guess;
            return Some((guess, self.indexes[guess as usize]));
        }
        let (id, index) = self.keys.get(key).map(|kept| (kept.id, kept.index))?;
        self.predict(prev, id);
        Some((id, index))
    }

    /// Keeps new key `key` (array index `index`), marked as a key of object `mark`, while
    /// there is room: its id, which becomes `prev`; else None.
    #[inline(always)]
    fn keep(
        &mut self,
        key: &'a [u8],
        index: Option<u32>,
        mark: u64,
        prev: &mut u32,
    ) -> Option<u32> {
        let next = self.keys.len();
        if next >= MAX_KEY_IDS || key.len() > MAX_KEY_BYTES {
            return None;
        }
        let id = next as u32;
        self.names.push(key);
        self.indexes.push(index);
        self.marks.push(mark);
        self.keys.insert(key, Kept { id, index });
        self.predict(prev, id);
        Some(id)
    }

    /// Marks kept key `id` as a key of object `serial`; false if it already is one.
    #[inline]
    fn mark(&mut self, id: u32, serial: u64) -> bool {
        let mark = &mut self.marks[id as usize];
        if *mark == serial {
            return false;
        }
        self.undo.push((id, *mark));
        *mark = serial;
        true
    }

    /// Puts back the marks changed since the undo log was `from` long.
    #[inline]
    fn unmark(&mut self, from: usize) {
        for &(id, mark) in self.undo[from..].iter().rev() {
            self.marks[id as usize] = mark;
        }
        self.undo.truncate(from);
    }

    /// The shape slot of the object whose key ids are `ids[start..]`, all kept
    /// (`shapeless` otherwise), whose tape starts at slot `from` and ends at `to`: its
    /// shape id if an object that ended before it began had its keys in its order (JS
    /// learns a shape's keys as it finishes the object that defines it, so an object
    /// inside this one does not count); else, while there is room for a new shape,
    /// `DEFINES_SHAPE - (id + MAX_SHAPES * hash)`: its id, and a hash of its keys' bytes
    /// (`shape_hash`) by which JS finds the builder of these keys made for an earlier
    /// message; else `NO_SHAPE`.
    fn shape(&mut self, start: usize, shapeless: bool, from: usize, to: usize) -> f64 {
        let ids = &self.ids[start..];
        // The last shape first: a run of objects or records of one shape is found
        // without hashing their ids.
        let known = if shapeless {
            None
        } else if ids == self.last_shape.as_slice() {
            Some(self.last)
        } else {
            let found = self.shapes.get(ids).copied();
            if let Some(found) = found {
                self.last_shape.clear();
                self.last_shape.extend_from_slice(ids);
                self.last = found;
            }
            found
        };
        let slot = if shapeless {
            NO_SHAPE
        } else if let Some((shape, end)) = known {
            if end <= from {
                shape as f64
            } else {
                NO_SHAPE
            }
        } else if self.shapes.len() < MAX_SHAPES {
            let shape = self.shapes.len() as u32;
            let hash = shape_hash(ids.iter().map(|&id| self.names[id as usize]));
            self.shapes.insert(ids.to_vec(), (shape, to));
            self.last_shape.clear();
            self.last_shape.extend_from_slice(ids);
            self.last = (shape, to);
            DEFINES_SHAPE - (shape as f64 + MAX_SHAPES as f64 * hash as f64)
        } else {
            NO_SHAPE
        };
        self.ids.truncate(start);
        slot
    }
}

/// A record's key (`engine::decode_entries`), as a json object's key is on the tape: its
/// id in the message's key table (shared with its json values), or a new key's or a key
/// not kept's slot then its text slot; or an array index, as its number (`INDEX_KEY`). Returns its value if it is an array index; its
/// order and repeats are the record's `KeySet`'s. A record with a shape slot (`shape`)
/// learns the key's id, or that it has no shape.
pub fn record_key(
    d: &mut Decoding,
    shape: Option<&mut RecordShape>,
    prev: &mut u32,
) -> Result<Option<u32>> {
    let start = d.r.offset();
    let (bytes, at) = super::string::take(d)?;
    let key = d.r.since(start);
    let index = array_index(bytes);
    if let Some(n) = index {
        // A key that is an array index ("138586341") is most often an id, met once: it is
        // not looked up nor kept (citm_catalog's records, keyed by id, decoded ~5% slower
        // when every key was), and goes to JS as its number (`INDEX_KEY`), which JS
        // stores as an element with no string to make, parse back or hash.
        d.out.push(INDEX_KEY - n as f64);
        if let Some(shape) = shape {
            shape.shapeless = true;
        }
        return Ok(index);
    }
    let table = d.json_keys.get_or_insert_with(Default::default);
    if let Some((id, _)) = table.find(key, prev) {
        d.out.push(id as f64);
        if shape.is_some() {
            table.ids.push(id);
        }
        return Ok(None);
    }
    // Read (and so validated) first, as every string is, before it is kept.
    let slot = d.text.push_str(bytes, at)?;
    let table = d.json_keys.get_or_insert_with(Default::default);
    // No json object is open: a record's value is read after its key.
    if let Some(id) = table.keep(key, index, 0, prev) {
        d.out.push(NEW_KEY - id as f64);
        if shape.is_some() {
            table.ids.push(id);
        }
    } else {
        d.out.push(OTHER_KEY);
        if let Some(shape) = shape {
            shape.shapeless = true;
        }
    }
    d.out.push(slot);
    Ok(None)
}

/// A record's shape slot, as a json object's (`KeyIds::shape`): a record of
/// `MIN_SHAPE_KEYS` to `MAX_SHAPE_KEYS` entries has one after its count, set once its keys
/// are read, so that JS builds a record of keys met before as one object literal
/// (lib/types/record.js) instead of key by key. Shapes are shared with json objects.
pub struct RecordShape {
    at: usize,
    ids_from: usize,
    shapeless: bool,
}

impl RecordShape {
    /// The slot of a record of `count` entries, whose count was just pushed; None if it
    /// has none.
    pub fn start(d: &mut Decoding, count: u32) -> Option<RecordShape> {
        if !has_shape_slot(count as usize) {
            return None;
        }
        let at = d.out.slots();
        d.out.push(NO_SHAPE);
        let ids_from = d.json_keys.as_ref().map_or(0, |table| table.ids.len());
        Some(RecordShape {
            at,
            ids_from,
            shapeless: false,
        })
    }

    /// Sets the slot, once the record's entries are read.
    pub fn end(self, d: &mut Decoding) {
        // No table: every key was an array index, and the slot stays NO_SHAPE.
        if let Some(table) = d.json_keys.as_mut() {
            let slot = table.shape(self.ids_from, self.shapeless, self.at, d.out.slots());
            d.out.set(self.at, slot);
        }
    }
}

/// A record's key on encode (`engine::encode_block`): a length in units, the string in the
/// text, as a string step takes it; or `-1 - n`, a short key JS wrote itself, its `n` bytes
/// of UTF-8 packed in the slots after (lib/types/record.js).
pub fn record_key_encode(e: &mut Encoding) -> Result<()> {
    let slot = e.t.slot()?;
    if slot >= 0.0 {
        return string_of(e, slot, false);
    }
    let n = (-1.0 - slot) as u32;
    if n as f64 != -1.0 - slot {
        return Err(e.t.mismatch());
    }
    let bytes = e.t.raw(n as usize)?;
    e.w.varint(n);
    e.w.bytes(bytes);
    Ok(())
}

const MAX_KEY_IDS: usize = 256;
const MAX_KEY_BYTES: usize = 64;
/// Key id slots: a key not kept; a new key, which takes the next id, is `NEW_KEY - id`.
/// A message's table starts empty, so its first kept key is `NEW_KEY - 0`: JS starts its
/// own table again there, and needs no other sign of where a message begins.
const OTHER_KEY: f64 = -1.0;
/// A record's key that is array index `n` is the one slot `INDEX_KEY - n`, no text (below
/// every other key slot: new keys' ids are below `MAX_KEY_IDS`).
pub const INDEX_KEY: f64 = -4294967296.0;
const NEW_KEY: f64 = -2.0;

const MAX_SHAPES: usize = 256;
/// Bits of a shape's hash: with a shape id below 256, a shape slot stays an exact f64.
const SHAPE_HASH_BITS: u32 = 44;

/// A hash of a shape's keys, each its bytes on the wire (varint length first, so the
/// sequence is unambiguous). It only finds a builder: JS compares the keys themselves.
fn shape_hash<'k>(keys: impl Iterator<Item = &'k [u8]>) -> u64 {
    let mut h = FxHasher::default();
    for key in keys {
        h.write(key);
    }
    h.finish() >> (64 - SHAPE_HASH_BITS)
}

/// Objects of this many members have a shape slot (lib/json-tape.js has the same):
/// fewer are built as fast by keyed stores, more would make long builders.
const MIN_SHAPE_KEYS: usize = 4;
const MAX_SHAPE_KEYS: usize = 64;

/// Whether a decoded object of `members` members has a shape slot on the tape.
#[inline]
pub fn has_shape_slot(members: usize) -> bool {
    (MIN_SHAPE_KEYS..=MAX_SHAPE_KEYS).contains(&members)
}

/// Shape slots: an object of no shape kept; an object whose keys make shape `s` for the
/// first time has `DEFINES_SHAPE - (s + MAX_SHAPES * hash)`; a later one with those keys
/// has `s`.
const NO_SHAPE: f64 = -1.0;
const DEFINES_SHAPE: f64 = -2.0;

pub const ENTRY: Entry = Entry {
    name: "json",
    members: &[],
    compile: |_, _| Ok(Node::Json),
};

const NULL: f64 = 0.0;
const FALSE: f64 = 1.0;
const TRUE: f64 = 2.0;
const NUMBER: f64 = 3.0;
const STRING: f64 = 4.0;
const ARRAY: f64 = 5.0;
const OBJECT: f64 = 6.0;
/// On decode only: an array whose items are all numbers (then the count, then the
/// numbers, with no token each).
const NUMBERS: f64 = 8.0;
/// On encode only: a value JS wrote itself, in the form above, but for its longer strings,
/// which it leaves in the text (`raw`).
const RAW: f64 = 7.0;

/// Strings shorter than this many bytes, and arrays and objects of fewer than
/// `SHORT_COUNT` items, carry their length in the type byte.
const SHORT_STRING: u32 = 64;
const SHORT_COUNT: u32 = 32;
const SMALL_INT: i64 = 63;

/// Whether `v` is written as an integer: a safe integer that is not -0.
#[inline]
fn is_int(v: f64) -> bool {
    v.fract() == 0.0 && v.abs() <= MAX_SAFE as f64 && !(v == 0.0 && v.is_sign_negative())
}

pub fn encode(e: &mut Encoding) -> Result<()> {
    let token = e.t.slot()?;
    if token == NULL || token == FALSE || token == TRUE {
        e.w.u8(token as u8);
    } else if token == NUMBER {
        let v = e.t.slot()?;
        if is_int(v) {
            let n = v as i64;
            if (0..=SMALL_INT).contains(&n) {
                e.w.u8(0x40 | n as u8);
            } else {
                e.w.u8(0x04);
                e.w.varint64(zigzag64(n));
            }
        } else if v.is_finite() {
            e.w.u8(0x03);
            e.w.f64(v);
        } else {
            return Err(e.t.mismatch());
        }
    } else if token == STRING {
        string(e, true)?;
    } else if token == RAW {
        raw(e)?;
    } else if token == ARRAY || token == OBJECT {
        let count = e.t.count(u32::MAX)?;
        let base = if token == ARRAY { 0xc0 } else { 0xe0 };
        if count < SHORT_COUNT {
            e.w.u8(base | count as u8);
        } else {
            e.w.u8(if token == ARRAY { 0x06 } else { 0x07 });
            e.w.varint(count);
        }
        e.enter()?;
        for _ in 0..count {
            if token == OBJECT {
                string(e, false)?;
            }
            encode(e)?;
        }
        e.depth -= 1;
    } else {
        return Err(e.t.mismatch());
    }
    Ok(())
}

/// A value JS wrote in its bytes on the wire (lib/json-tape.js, `write`): its byte
/// count, the count of its strings left in the text, the bytes (`TapeIn::raw`), then per
/// such string where it goes among the bytes (ascending) and its slot (a value's, as
/// `TapeIn::text` reads it; a key's is `-1 - slot`).
pub fn raw(e: &mut Encoding) -> Result<()> {
    let len = e.t.count(u32::MAX)? as usize;
    let strings = e.t.count(u32::MAX)?;
    let bytes = e.t.raw(len)?;
    let mut at = 0;
    for _ in 0..strings {
        let to = e.t.count(len as u32)? as usize;
        if to < at {
            return Err(e.t.mismatch());
        }
        e.w.bytes(&bytes[at..to]);
        at = to;
        let slot = e.t.slot()?;
        if slot >= 0.0 {
            string_of(e, slot, true)?;
        } else {
            string_of(e, -1.0 - slot, false)?;
        }
    }
    e.w.bytes(&bytes[at..]);
    Ok(())
}

/// A string from the tape: a value (with its type byte) or a key (a plain string).
fn string(e: &mut Encoding, value: bool) -> Result<()> {
    let slot = e.t.slot()?;
    string_of(e, slot, value)
}

/// `string` of a string whose slot is `slot` (`TapeIn::text`: its length in units, or
/// `LATIN1_SLOT` plus its length in the Latin-1 text).
fn string_of(e: &mut Encoding, slot: f64, value: bool) -> Result<()> {
    let chars = e.t.text(slot)?;
    if !value {
        return write_chars(e.w, chars);
    }
    // Written as a plain string (varint length first), then given its type byte: a
    // length below 64 is one varint byte, which becomes the type byte itself.
    let start = e.w.len();
    e.w.u8(0x05);
    write_chars(e.w, chars)?;
    let written = e.w.as_mut_slice();
    if written[start + 1] < SHORT_STRING as u8 {
        written[start] = 0x80 | written[start + 1];
        written.copy_within(start + 2.., start + 1);
        e.w.truncate(e.w.len() - 1);
    }
    Ok(())
}

pub fn decode(d: &mut Decoding) -> Result<()> {
    // Key ids and shapes are per message: every json value of the message (the items of
    // an array of `t.json()`, say) shares one table, and JS keeps its strings and shapes
    // in one table of its own. The table goes back to `d` for the message's next json
    // value; each message (each `Decoding`) starts with none.
    let mut table = d.json_keys.take().unwrap_or_default();
    let result = value(d, &mut table);
    d.json_keys = Some(table);
    result
}

fn value<'a>(d: &mut Decoding<'a, '_>, table: &mut KeyIds<'a>) -> Result<()> {
    let offset = d.r.offset();
    let tag = d.r.u8()?;
    tagged(d, table, tag, offset)
}

/// A number, of type byte `tag` at `offset`; None if `tag` is not a number's.
#[inline(always)]
fn number(d: &mut Decoding, tag: u8, offset: usize) -> Result<Option<f64>> {
    match tag {
        0x03 => {
            let v = d.r.f64()?;
            if !v.is_finite() || is_int(v) {
                return Err(Error::malformed(
                    offset,
                    Fault::NonCanonical(if v.is_finite() {
                        "a json integer in the float form"
                    } else {
                        "a json number that is not finite"
                    }),
                ));
            }
            d.charge(super::HEAP_NUMBER, offset)?;
            Ok(Some(v))
        }
        0x04 => {
            let v = unzigzag64(d.r.varint64()?);
            if v.unsigned_abs() > MAX_SAFE as u64 {
                return Err(Error::malformed(offset, Fault::VarintOutOfRange));
            }
            if (0..=SMALL_INT).contains(&v) {
                return Err(Error::malformed(
                    offset,
                    Fault::NonCanonical("a json integer 0-63 in the long form"),
                ));
            }
            d.charge(super::HEAP_NUMBER, offset)?;
            Ok(Some(v as f64))
        }
        0x40..=0x7f => Ok(Some((tag & 0x3f) as f64)),
        _ => Ok(None),
    }
}

/// The value of type byte `tag` at `offset` (the byte read).
fn tagged<'a>(
    d: &mut Decoding<'a, '_>,
    table: &mut KeyIds<'a>,
    tag: u8,
    offset: usize,
) -> Result<()> {
    if let Some(v) = number(d, tag, offset)? {
        d.out.push(NUMBER);
        d.out.push(v);
        return Ok(());
    }
    match tag {
        0x00..=0x02 => d.out.push(tag as f64),
        0x05 | 0x80..=0xbf => {
            let len = if tag == 0x05 {
                let len = d.length(LimitKind::StringBytes, d.limits.max_string_bytes)?;
                if len < SHORT_STRING {
                    return Err(Error::malformed(
                        offset,
                        Fault::NonCanonical("a short json string in the long form"),
                    ));
                }
                len
            } else {
                (tag & 0x3f) as u32
            };
            let at = d.r.offset();
            let bytes = d.r.take(len as usize)?;
            let slot = d.text.push_str(bytes, at)?;
            d.charge(super::string::HEAP, offset)?;
            d.out.push(STRING);
            d.out.push(slot);
        }
        0x06 | 0x07 | 0xc0..=0xff => {
            let object = tag == 0x07 || tag >= 0xe0;
            // An item takes at least its type byte; a member its key's length byte too.
            let min = if object { 2 } else { 1 };
            let count = if tag < 0x08 {
                let count = d.count(min)?;
                if count < SHORT_COUNT {
                    return Err(Error::malformed(
                        offset,
                        Fault::NonCanonical("a short json array or object in the long form"),
                    ));
                }
                count
            } else {
                let count = (tag & 0x1f) as u32;
                if count as u64 * min as u64 > d.r.remaining() as u64 {
                    return Err(Error::truncated(
                        d.r.offset(),
                        count as usize * min as usize - d.r.remaining(),
                    ));
                }
                count
            };
            let cost = if object {
                super::record::HEAP + count as u64 * super::record::HEAP_PER_ENTRY
            } else {
                super::array::HEAP + count as u64 * super::array::HEAP_PER_ITEM
            };
            d.charge(cost, offset)?;
            let token_at = d.out.slots();
            d.out.push(if object { OBJECT } else { ARRAY });
            d.out.push(count as f64);
            // An array's leading numbers go on the tape bare: if all its items are
            // numbers its token becomes NUMBERS, else, at its first other item, the
            // numbers before it get their tokens.
            let mut bare = if object { None } else { Some(0usize) };
            // An object of `MIN_SHAPE_KEYS` to `MAX_SHAPE_KEYS` members has a shape slot,
            // set once its keys are known.
            let shaped = object && has_shape_slot(count as usize);
            let shape_at = d.out.slots();
            let ids_from = table.ids.len();
            let mut shapeless = false;
            if shaped {
                d.out.push(NO_SHAPE);
            }
            d.enter(offset)?;
            let mut keys = KeyOrder::default();
            let mut others: Option<KeySet> = None;
            let serial = if object {
                table.objects += 1;
                table.objects
            } else {
                0
            };
            let undo_from = table.undo.len();
            // The previous kept key of an object (the next one is predicted from it).
            let mut prev = NO_KEY;
            for i in 0..count {
                if object {
                    let start = d.r.offset();
                    let (bytes, at) = super::string::take(d)?;
                    let key = d.r.since(start);
                    if let Some((id, index)) = table.find(key, &mut prev) {
                        // Its order as `KeySet::check` would, then its repeats, here.
                        keys.order(index, start)?;
                        if !table.mark(id, serial) {
                            return Err(Error::malformed(start, Fault::DuplicateKey));
                        }
                        d.out.push(id as f64);
                        if shaped {
                            table.ids.push(id);
                        }
                    } else {
                        // Read (and so validated) first, as every string is, before its
                        // order and repeats are checked.
                        let slot = d.text.push_str(bytes, at)?;
                        let index = array_index(bytes);
                        keys.order(index, start)?;
                        // A new key was in no open object: nothing to put back.
                        if let Some(id) = table.keep(key, index, serial, &mut prev) {
                            d.out.push(NEW_KEY - id as f64);
                            if shaped {
                                table.ids.push(id);
                            }
                        } else {
                            // Its repeats found among the other keys not kept (a kept
                            // key is never one of them).
                            if index.is_none() {
                                others
                                    .get_or_insert_with(|| KeySet::new(Keys::Record))
                                    .distinct(key, start)?;
                            }
                            d.out.push(OTHER_KEY);
                            shapeless = true;
                        }
                        d.out.push(slot);
                    }
                    value(d, table).map_err(|e| e.within(Segment::Field(key_text(key))))?;
                } else {
                    let offset = d.r.offset();
                    let tag = d.r.u8().map_err(|e| e.within_index(i))?;
                    if let Some(n) = bare {
                        if let Some(v) = number(d, tag, offset).map_err(|e| e.within_index(i))? {
                            d.out.push(v);
                            bare = Some(n + 1);
                            continue;
                        }
                        d.out.spread(token_at + 2, n, NUMBER);
                        bare = None;
                    }
                    tagged(d, table, tag, offset).map_err(|e| e.within_index(i))?;
                }
            }
            if bare.is_some() && count > 0 {
                d.out.set(token_at, NUMBERS);
            }
            if shaped {
                let shape = table.shape(ids_from, shapeless, shape_at, d.out.slots());
                d.out.set(shape_at, shape);
            }
            table.unmark(undo_from);
            d.depth -= 1;
        }
        _ => return Err(Error::malformed(offset, Fault::JsonTag(tag))),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::text::TextBuffer;
    use crate::engine;
    use crate::json::Json;
    use crate::program::Limits;
    use crate::schema::Schema;
    use crate::value::{encode_value, Value};

    /// The shape slots of `text`'s objects as decoded, in tape order (objects of 4 to 64
    /// members have one).
    fn shape_slots(text: &str) -> Vec<f64> {
        let schema = Schema::compile(r#"{"type":"json"}"#, Limits::default()).unwrap();
        let value = Value::from_json(&Json::parse(text).unwrap()).unwrap();
        let bytes = encode_value(&schema, &value).unwrap();
        let mut buffer = TextBuffer::new();
        let n = engine::decode(&schema.program, &bytes, &mut [], &mut buffer).unwrap();
        let mut tape = vec![0.0; n];
        engine::decode(&schema.program, &bytes, &mut tape, &mut buffer).unwrap();
        let mut slots = Vec::new();
        let mut i = 0;
        walk(&tape[..n], &mut i, &mut slots);
        assert_eq!(i, n);
        slots
    }

    fn walk(tape: &[f64], i: &mut usize, slots: &mut Vec<f64>) {
        let token = tape[*i];
        *i += 1;
        if token == NUMBER || token == STRING {
            *i += 1;
        } else if token == NUMBERS {
            *i += 1 + tape[*i] as usize;
        } else if token == ARRAY {
            let n = tape[*i] as usize;
            *i += 1;
            for _ in 0..n {
                walk(tape, i, slots);
            }
        } else if token == OBJECT {
            let n = tape[*i] as usize;
            *i += 1;
            if has_shape_slot(n) {
                slots.push(tape[*i]);
                *i += 1;
            }
            for _ in 0..n {
                let id = tape[*i];
                *i += if id < 0.0 { 2 } else { 1 };
                walk(tape, i, slots);
            }
        }
    }

    /// The shape id and hash of a slot that defines a shape.
    fn defined(slot: f64) -> (u32, u64) {
        assert!(slot <= DEFINES_SHAPE, "{slot} defines no shape");
        let d = DEFINES_SHAPE - slot;
        let id = d % MAX_SHAPES as f64;
        (id as u32, ((d - id) / MAX_SHAPES as f64) as u64)
    }

    #[test]
    fn an_object_with_the_keys_of_an_earlier_one_has_its_shape() {
        let slots = shape_slots(
            r#"[{"a":1,"b":2,"c":3,"d":4},{"a":5,"b":6,"c":7,"d":8},{"x":1},
               {"b":1,"a":2,"c":3,"d":4},{"a":9,"b":9,"c":9,"d":9}]"#,
        );
        assert_eq!(slots.len(), 4);
        assert_eq!(defined(slots[0]).0, 0);
        assert_eq!(slots[1], 0.0);
        // The same keys in another order are another shape.
        assert_eq!(defined(slots[2]).0, 1);
        assert_ne!(defined(slots[0]).1, defined(slots[2]).1);
        assert_eq!(slots[3], 0.0);
    }

    #[test]
    fn an_object_does_not_take_the_shape_of_an_object_inside_it() {
        // JS learns a shape as its first object ends: the inner one, after the outer began.
        let slots = shape_slots(r#"{"a":1,"b":2,"c":3,"d":{"a":1,"b":2,"c":3,"d":4}}"#);
        assert_eq!(slots[0], NO_SHAPE);
        assert_eq!(defined(slots[1]).0, 0);
    }

    #[test]
    fn a_shape_hash_depends_on_the_keys_only() {
        let one = shape_slots(r#"[{"k":1,"l":2,"m":3,"n":4}]"#);
        let two = shape_slots(
            r#"{"z":{"q":1,"r":2,"s":3,"t":4},"y":[{"k":"x","l":[],"m":null,"n":{}}]}"#,
        );
        assert_eq!(defined(one[0]).1, defined(two[1]).1);
        assert_eq!(defined(two[1]).0, 1);
    }

    #[test]
    fn a_key_repeated_around_objects_inside_is_found_and_one_in_siblings_is_not() {
        let schema = Schema::compile(r#"{"type":"json"}"#, Limits::default()).unwrap();
        let decode = |text: &str| {
            // Written by hand: the encoder refuses a repeated key.
            let json = Json::parse(text).unwrap();
            let value = Value::from_json(&json).unwrap();
            let bytes = encode_value(&schema, &value).unwrap();
            engine::decode(&schema.program, &bytes, &mut [], &mut TextBuffer::new()).map(|_| ())
        };
        for ok in [
            r#"{"a":1,"b":{"a":2},"c":{"a":3,"d":{"a":4}}}"#,
            r#"[{"a":{"a":{"a":1}}},{"a":{"a":2}}]"#,
        ] {
            assert!(decode(ok).is_ok(), "{ok}");
        }
        // {"a":{"b":{"a":0}},"a":1}, and the same one level deeper.
        for hex in [
            "e20161e10162e1016140016141",
            "e10178e20161e10162e1016140016141",
        ] {
            let bytes: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            let err = engine::decode(&schema.program, &bytes, &mut [], &mut TextBuffer::new())
                .unwrap_err();
            assert_eq!(err.code(), "ERR_SHORN_MALFORMED", "{hex}");
        }
    }

    #[test]
    fn objects_with_a_key_not_kept_have_no_shape() {
        let long = "k".repeat(MAX_KEY_BYTES + 1);
        let object = format!(r#"{{"a":1,"b":2,"c":3,"{long}":4}}"#);
        let slots = shape_slots(&format!("[{object},{object}]"));
        assert_eq!(slots, [NO_SHAPE, NO_SHAPE]);
    }

    #[test]
    fn shapes_past_the_kept_count_have_none() {
        // 300 objects of 4 keys, each a new key list (of 37 keys in all).
        let mut objects = Vec::new();
        for k in 0..300 {
            objects.push(format!(
                r#"{{"a{}":0,"b{}":1,"c":2,"d":3}}"#,
                k % 20,
                k / 20
            ));
        }
        let slots = shape_slots(&format!("[{}]", objects.join(",")));
        let new_shapes = slots.iter().filter(|&&s| s <= DEFINES_SHAPE).count();
        assert_eq!(new_shapes, MAX_SHAPES);
        assert!(slots[MAX_SHAPES..]
            .iter()
            .all(|&s| s == NO_SHAPE || s >= 0.0));
    }
}
