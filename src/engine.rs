//! The engine: runs a `Program` over one message, writing bytes from the tape (encode)
//! or the tape from bytes (decode). It knows control flow (repeat, branch, call) and
//! hands every value to its type's functions in `crate::types`.
//!
//! The JS side validates types and ranges as it writes the tape (it must look at each
//! value anyway); the engine checks what only the bytes can tell (lone surrogates on
//! encode, everything on decode) and never trusts the tape for memory safety.

use crate::codec::framing::whole_frame;
use crate::codec::{
    EncodeInput, Error, ErrorKind, LimitKind, Reader, Result, Segment, TapeIn, TapeOut, TextBuffer,
    Violation, Writer,
};
use crate::program::{Keys, Op, Program, Step, MAX_JS_STRING_LENGTH};
use crate::types::keys::{key_text, KeySet};
use crate::types::{
    array, boolean, bytes, date, enumeration, float, int64, integer, json, optional, string,
    typed_array, union, verify, verify_encoded, Decoding, Encoding,
};

/// In place of a record's count on the tape: JS wrote the record whole, in its bytes on
/// the wire (its count, keys and values), and they follow as a json value's do
/// (`json::raw`: their length, no strings, the bytes). Never a count, which is 0 or more.
const RAW_ENTRIES: f64 = -1.0;

/// Encodes the marshalled message into `w` (appending).
pub fn encode(program: &Program, input: &EncodeInput<'_>, w: &mut Writer) -> Result<()> {
    let mut e = Encoding {
        t: TapeIn::new(input),
        w,
        limits: program.limits,
        depth: 0,
    };
    encode_block(&mut e, program, 0, program.main_end as usize)
}

/// Runs `program.steps[start..end]`; the error of a step gets that step's path.
fn encode_block(e: &mut Encoding, p: &Program, start: usize, end: usize) -> Result<()> {
    let mut pc = start;
    while pc < end {
        let step = &p.steps[pc];
        let r = match step.op {
            Op::Array {
                end: items_end,
                leaves,
                ..
            } => {
                encode_array(e, p, pc, items_end as usize, leaves)?;
                pc = items_end as usize;
                continue;
            }
            Op::Entries {
                end: entries_end,
                key_end,
                keys,
                ..
            } => {
                let first = e.t.slot().map_err(|err| err.at(&step.path))?;
                if first == RAW_ENTRIES && keys == Keys::Record {
                    // A record JS wrote whole in its bytes (lib/types/record.js): copied.
                    json::raw(e).map_err(|err| err.at(&step.path))?;
                    pc = entries_end as usize;
                    continue;
                }
                let count =
                    e.t.as_count(first, u32::MAX)
                        .map_err(|err| err.at(&step.path))?;
                e.w.varint(count);
                for i in 0..count {
                    let start = e.w.len();
                    if keys == Keys::Record {
                        // A record's key is one string step: run without a block.
                        json::record_key_encode(e)
                            .map_err(|err| err.at(&p.steps[pc + 1].path).at(&step.path))?;
                    } else {
                        encode_block(e, p, pc + 1, key_end as usize)
                            .map_err(|err| entry_path(err, keys, i, 0).at(&step.path))?;
                    }
                    let key = start..e.w.len();
                    let (from, to) = (key_end as usize, entries_end as usize);
                    // A value of one leaf (a record of numbers) runs it without a block, and
                    // so does a value of one union (a record of mixed values) its branch.
                    // (A value of no steps, a literal, ends where it starts: `from` may be
                    // the program's end.)
                    let r = match p.steps[from..to].first().map(|step| step.op) {
                        Some(op) if to == from + 1 && op.is_leaf() => {
                            encode_leaf(e, op).map_err(|err| err.at(&p.steps[from].path))
                        }
                        Some(Op::Branch { count, table })
                            if p.tables[table as usize + count as usize] as usize == to =>
                        {
                            encode_branch(e, p, from, count, table).map(|_| ())
                        }
                        _ => encode_block(e, p, from, to),
                    };
                    r.map_err(|err| {
                        match keys {
                            // A record's value is named by its key, as decode names it.
                            Keys::Record => {
                                err.within(Segment::Field(key_text(&e.w.as_slice()[key.clone()])))
                            }
                            _ => entry_path(err, keys, i, 1),
                        }
                        .at(&step.path)
                    })?;
                }
                pc = entries_end as usize;
                continue;
            }
            Op::Presence { end: skip, .. } => {
                if e.t.slot().map_err(|err| err.at(&step.path))? == 0.0 {
                    e.w.u8(0);
                    pc = skip as usize;
                    continue;
                }
                e.w.u8(1);
                Ok(())
            }
            Op::Branch { count, table } => {
                pc = encode_branch(e, p, pc, count, table)?;
                continue;
            }
            Op::Call { block } => {
                let (s, end, _) = p.blocks[block as usize];
                e.enter()
                    .and_then(|()| encode_block(e, p, s as usize, end as usize))
                    .map_err(|err| err.at(&step.path))?;
                e.depth -= 1;
                Ok(())
            }
            Op::Checked { .. } => encode_checked(e, p, pc),
            Op::Count { .. } => Ok(()),
            op => encode_leaf(e, op),
        };
        r.map_err(|err| err.at(&step.path))?;
        pc += 1;
    }
    Ok(())
}

/// Branch step `pc` (a union's `count` variants, their bounds at `table`): the variant's
/// index from the tape, then the variant; returns the step after the branch. A variant of
/// one leaf (a union of scalars) runs it without a block. The branch step's path goes on
/// its own errors (the index); a variant's steps carry theirs.
#[inline(always)]
fn encode_branch(
    e: &mut Encoding,
    p: &Program,
    pc: usize,
    count: u32,
    table: u32,
) -> Result<usize> {
    let step = &p.steps[pc];
    let k = e.t.slot().map_err(|err| err.at(&step.path))?;
    if !(k >= 0.0 && k < count as f64) {
        return Err(e.t.mismatch().at(&step.path));
    }
    let k = k as usize;
    e.w.varint(k as u32);
    let t = table as usize;
    let (from, to) = (p.tables[t + k] as usize, p.tables[t + k + 1] as usize);
    // (A variant of no steps, a literal or null, ends where it starts: `from` may be the
    // program's end.)
    match p.steps[from..to].first().map(|step| step.op) {
        Some(op) if to == from + 1 && op.is_leaf() => {
            encode_leaf(e, op).map_err(|err| err.at(&p.steps[from].path))?;
        }
        // A variant of one array of leaves (a union with `string[]`) runs it without a block.
        Some(Op::Array {
            end, leaves: true, ..
        }) if end as usize == to => encode_array(e, p, from, to, true)?,
        _ => encode_block(e, p, from, to)?,
    }
    Ok(p.tables[t + count as usize] as usize)
}

/// Array step `pc`, its item steps up to `items_end` (`leaves`: all of them leaves): the
/// count from the tape, then the items. The array step's path goes on every error.
#[inline(always)]
fn encode_array(
    e: &mut Encoding,
    p: &Program,
    pc: usize,
    items_end: usize,
    leaves: bool,
) -> Result<()> {
    let step = &p.steps[pc];
    let count = e.t.count(u32::MAX).map_err(|err| err.at(&step.path))?;
    e.w.varint(count);
    let items = &p.steps[pc + 1..items_end];
    if leaves {
        encode_leaf_items(e, items, count)
            .map_err(|(i, k, err)| err.at(&items[k].path).within_index(i).at(&step.path))
    } else {
        for i in 0..count {
            encode_block(e, p, pc + 1, items_end)
                .map_err(|err| err.within_index(i).at(&step.path))?;
        }
        Ok(())
    }
}

/// The failed item of an array of leaves: its index, the item step (within the item),
/// and the leaf's error.
type ItemError = (u32, usize, Error);

/// Encodes `count` items of an array whose item steps are all leaves, without running a
/// block per item; an array of one leaf type loops over that type's code alone (mesh
/// encode: the arrays of numbers). Same bytes and errors as `encode_block` per item.
fn encode_leaf_items(
    e: &mut Encoding,
    items: &[Step],
    count: u32,
) -> std::result::Result<(), ItemError> {
    fn each(
        e: &mut Encoding,
        count: u32,
        leaf: impl Fn(&mut Encoding) -> Result<()>,
    ) -> std::result::Result<(), ItemError> {
        for i in 0..count {
            leaf(e).map_err(|err| (i, 0, err))?;
        }
        Ok(())
    }
    match items {
        [item] => match item.op {
            Op::Float64 => each(e, count, float::encode_float64),
            Op::Float32 => each(e, count, float::encode_float32),
            Op::Uint8 => each(e, count, integer::encode_uint8),
            Op::Uint16 | Op::Uint32 => each(e, count, integer::encode_unsigned),
            Op::Int16 | Op::Int32 => each(e, count, integer::encode_signed),
            Op::Int => each(e, count, integer::encode_int),
            Op::String => each(e, count, string::encode),
            op => each(e, count, |e| encode_leaf(e, op)),
        },
        _ => {
            for i in 0..count {
                for (k, item) in items.iter().enumerate() {
                    encode_leaf(e, item.op).map_err(|err| (i, k, err))?;
                }
            }
            Ok(())
        }
    }
}

/// A constrained leaf on encode: its own op, then the checks the core makes on encode
/// (`verify_encoded`: a string's native format; JS checked the rest as it wrote the
/// tape). Out of line and cold, as `decode_checked` and `count`, and given only the step's
/// index (it reads its rule itself): with a second copy of the leaf match inlined in
/// `encode_block`, or values of the rule kept live in its loop, schemas without
/// constraints paid in the step dispatch (register spills). callgrind, native
/// instructions per nestedEvent encode: 1477 without constraints (main), 1550 inlined,
/// 1511 out of line given the rule, 1493 so.
#[inline(never)]
#[cold]
fn encode_checked(e: &mut Encoding, p: &Program, pc: usize) -> Result<()> {
    match p.steps[pc].op {
        Op::Checked { rule } => {
            let rule = &p.rules[rule as usize];
            let start = e.w.len();
            encode_leaf(e, rule.op)?;
            verify_encoded(rule, &e.w.as_slice()[start..])
        }
        _ => Ok(()),
    }
}

#[inline(always)]
fn encode_leaf(e: &mut Encoding, op: Op) -> Result<()> {
    match op {
        Op::Bool => boolean::encode(e),
        Op::Uint8 => integer::encode_uint8(e),
        Op::Int8 => integer::encode_int8(e),
        Op::Uint16 | Op::Uint32 => integer::encode_unsigned(e),
        Op::Int16 | Op::Int32 => integer::encode_signed(e),
        Op::Int => integer::encode_int(e),
        Op::Int64 => int64::encode_int64(e),
        Op::Uint64 => int64::encode_uint64(e),
        Op::Float32 => float::encode_float32(e),
        Op::Float64 => float::encode_float64(e),
        Op::Date => date::encode(e),
        Op::String => string::encode(e),
        Op::Bytes => bytes::encode(e),
        Op::Enum { count } => enumeration::encode(e, count),
        Op::Typed { elem } => typed_array::encode(e, elem),
        Op::Json => json::encode(e),
        Op::Array { .. }
        | Op::Entries { .. }
        | Op::Presence { .. }
        | Op::Branch { .. }
        | Op::Call { .. }
        | Op::Checked { .. }
        | Op::Count { .. } => unreachable!("control steps are run by the block"),
    }
}

/// The path of an error in entry `i`'s key (`part` 0) or value (1): a Map names them as
/// `[...map][i][0]` and `[...map][i][1]` would; a record names a value by its key, which
/// the callers add from the key's bytes (`$.scores.ada`), and a key by the record.
#[cold]
fn entry_path(err: Error, keys: Keys, i: u32, part: u32) -> Error {
    match keys {
        Keys::Record => err,
        _ => err.within_index(part).within_index(i),
    }
}

/// From this many input bytes, a message's Latin-1 and wide strings are kept in two texts
/// (`TextBuffer::start`): below it, widening a small message's text costs less than the
/// second string and the property that carries it to JS. (The N-API layer splits only the
/// texts of schemas whose strings are not a fixed few: src/binding/mod.rs.) lib/runtime.js
/// has the same value: generated decodes of smaller inputs read their text as one string.
pub const SPLIT_TEXT_MIN_INPUT: usize = 4096;

/// Decodes one whole message from `input` into `tape` and `text` (`text` is cleared
/// first). Returns the number of tape slots the message needs: when that is more than
/// `tape.len()`, only the first `tape.len()` were written, and the caller should call
/// again with a tape that long (the N-API layer writes straight into JS memory this way,
/// with no copy, and grows the tape only for unusually large messages).
/// Bytes left after the message are `TrailingBytes`.
pub fn decode(
    program: &Program,
    input: &[u8],
    tape: &mut [f64],
    text: &mut TextBuffer,
) -> Result<usize> {
    decode_text(
        program,
        input,
        tape,
        text,
        input.len() >= SPLIT_TEXT_MIN_INPUT,
    )
    .map(|d| d.slots)
}

/// What a decode of one message found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decoded {
    /// The tape slots the message needs (as `decode` returns).
    pub slots: usize,
    /// The estimated JS heap its value takes (the figure `max_decoded_bytes` bounds): a
    /// caller that keeps many values sums these (lib/framing.js, a `decodeFrames` call).
    pub heap: u64,
}

/// `decode` with the text split (`TextBuffer::start`) or not, whatever the input's size
/// (the fuzz targets decode small messages both ways), and the value's estimated heap.
pub fn decode_text(
    program: &Program,
    input: &[u8],
    tape: &mut [f64],
    text: &mut TextBuffer,
    split: bool,
) -> Result<Decoded> {
    text.start(split);
    decode_at(program, input, 0, tape, text)
}

/// Decodes the message that is exactly `input[start..]`, appending its text to `text`;
/// offsets (of errors, and of `bytes` values on the tape) count from `input[0]`. The
/// decode budget counts this message's text only; the text as a whole must stay strings
/// JS can make.
#[inline(always)]
fn decode_at(
    program: &Program,
    input: &[u8],
    start: usize,
    tape: &mut [f64],
    text: &mut TextBuffer,
) -> Result<Decoded> {
    let text_mark = text.mark();
    let mut d = Decoding {
        r: Reader::at(input, start),
        out: TapeOut::new(tape),
        text,
        limits: program.limits,
        depth: 0,
        // The root's own cost is checked with the text's, at the end.
        heap: program.root_cost as u64,
        stop: usize::MAX,
        json_keys: None,
    };
    decode_block(&mut d, program, 0, program.main_end as usize)?;
    if d.r.remaining() != 0 {
        return Err(Error::new(ErrorKind::TrailingBytes {
            offset: d.r.offset(),
        }));
    }
    // The message's text, as the one string JS slices strings from.
    let offset = d.r.offset();
    d.charge(d.text.budget_since(&text_mark) as u64, offset)?;
    if d.text.longest() > MAX_JS_STRING_LENGTH as usize {
        return Err(Error::new(ErrorKind::LimitExceeded {
            offset: 0,
            what: LimitKind::TotalText,
            declared: d.text.longest() as u64,
            limit: MAX_JS_STRING_LENGTH as u64,
        }));
    }
    Ok(Decoded {
        slots: d.out.slots(),
        heap: d.heap,
    })
}

/// The error, with its offset and path, of the string whose length JS read from tape slot
/// `slot` and found breaking its pattern or format (checks only the JS layer makes): a
/// decode of the same input that stops there. None if the input does not lead there
/// (another thread changed a shared input meanwhile). Failures are rare, so a second
/// decode costs nothing on the happy path, where recording every string's offset would.
pub fn locate(program: &Program, input: &[u8], slot: usize) -> Option<Error> {
    let mut text = TextBuffer::new();
    let mut d = Decoding {
        r: Reader::new(input),
        // No tape: slots past its end are only counted.
        out: TapeOut::new(&mut []),
        text: &mut text,
        limits: program.limits,
        depth: 0,
        heap: program.root_cost as u64,
        stop: slot,
        json_keys: None,
    };
    match decode_block(&mut d, program, 0, program.main_end as usize) {
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::Invalid {
                    violation: Violation::Located,
                    ..
                }
            ) =>
        {
            Some(e)
        }
        _ => None,
    }
}

/// How `decode_frames` reads frames, and when it stops.
#[derive(Debug, Clone, Copy)]
pub struct FrameBatch {
    /// Each message is followed by its CRC-32C.
    pub checksum: bool,
    /// Longer messages are left to the caller (who refuses them).
    pub max_frame_bytes: u32,
    /// The batch ends after the frame that brings the text to this many UTF-16 units.
    pub text_units: usize,
    /// The batch stops before the frame whose value would bring the estimated heap of the
    /// batch's values past this (`Decoded::heap`, summed): the caller reads that frame
    /// alone and refuses it if its own budget for many frames is spent
    /// (lib/framing.js, `decodeFrames`' `maxDecodedBytes`).
    pub heap_budget: u64,
}

/// What `decode_frames` decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frames {
    /// Whole frames decoded.
    pub count: usize,
    /// Where the first frame not decoded starts in the input.
    pub end: usize,
    /// Tape slots written.
    pub slots: usize,
    /// Whether decoding stopped only because the tape or the text was full (the next
    /// frame may well be sound: call again).
    pub full: bool,
    /// The estimated heap of the decoded frames' values, summed (at most
    /// `FrameBatch::heap_budget`).
    pub heap: u64,
}

/// Decodes whole frames (docs/FORMAT.md, "Framing") from `input[start..]`, their
/// messages' slots one after another on `tape` and their text into `text` (cleared
/// first), in one pass: a stream decoder crosses into native code once per batch of
/// frames instead of once per frame. Stops before the first frame that is not whole and
/// sound in `input` (`codec::framing::whole_frame`) or whose message does not decode, with
/// nothing of it on the tape or in the text: that frame is for the caller to read alone,
/// which gives its error. Also stops before a frame the tape has no room for, before one
/// whose value would take the batch's heap past `batch.heap_budget`, and after the frame
/// that brings the text to `batch.text_units`.
pub fn decode_frames(
    program: &Program,
    input: &[u8],
    start: usize,
    batch: FrameBatch,
    tape: &mut [f64],
    text: &mut TextBuffer,
) -> Frames {
    // A batch's text is large: its Latin-1 and wide strings are kept apart, as a large
    // message's are, so one wide name does not widen every string of the batch.
    text.start(true);
    let mut pos = start;
    let mut count = 0;
    let mut slots = 0;
    let mut full = false;
    let mut heap = 0u64;
    while let Some(frame) = whole_frame(input, pos, batch.checksum, batch.max_frame_bytes) {
        let mark = text.mark();
        let room = &mut tape[slots..];
        match decode_at(program, &input[..frame.end], frame.start, room, text) {
            Ok(d) if d.heap > batch.heap_budget - heap => {
                // Read alone, it is refused or taken by the caller's budget.
                text.rollback(mark);
                break;
            }
            Ok(d) if d.slots <= room.len() => {
                slots += d.slots;
                heap += d.heap;
                count += 1;
                pos = frame.next;
                if text.len() >= batch.text_units {
                    full = true;
                    break;
                }
            }
            Ok(_) => {
                text.rollback(mark);
                full = count > 0;
                break;
            }
            Err(_) => {
                text.rollback(mark);
                break;
            }
        }
    }
    Frames {
        count,
        end: pos,
        slots,
        full,
        heap,
    }
}

/// Runs `program.steps[start..end]`; the error of a step gets that step's path.
fn decode_block(d: &mut Decoding, p: &Program, start: usize, end: usize) -> Result<()> {
    let mut pc = start;
    while pc < end {
        decode_step(d, p, &mut pc)?;
    }
    Ok(())
}

/// Runs an array's `count` composite items, `program.steps[start..end]` each, and gives
/// the error of a step with the index of its item. One call per array, not a
/// `decode_block` per item, whose prologue and epilogue cost ~50 instructions: citm_catalog
/// decode (8,685 objects of two fields) went from 3.59M native instructions to 2.66M,
/// with the skip of empty arrays (callgrind). The step's code is inlined here and in
/// `decode_block`: a shared loop run once for a block cost person decode 14 more.
fn decode_items(
    d: &mut Decoding,
    p: &Program,
    start: usize,
    end: usize,
    count: u32,
) -> std::result::Result<(), (u32, Error)> {
    for i in 0..count {
        let mut pc = start;
        while pc < end {
            decode_step(d, p, &mut pc).map_err(|err| (i, err))?;
        }
    }
    Ok(())
}

/// Runs the step at `pc` and moves `pc` on.
#[inline(always)]
fn decode_step(d: &mut Decoding, p: &Program, pc: &mut usize) -> Result<()> {
    let step = &p.steps[*pc];
    let r = match step.op {
        Op::Array {
            end: items_end,
            min_item_bytes,
            item_cost,
            leaves,
        } => {
            let offset = d.r.offset();
            if d.r.zero() {
                // An empty array (its count one zero byte) needs no limit or room check,
                // nor its items a call: citm_catalog, with 8,685 in one message, took ~10%
                // fewer native instructions to decode (callgrind). The budget is checked
                // still: leaves add their cost unchecked, so a count is where a message
                // over it is stopped, at that count's offset.
                d.charge(0, offset).map_err(|err| err.at(&step.path))?;
                d.out.push(0.0);
                *pc = items_end as usize;
                return Ok(());
            }
            let count = d
                .count(min_item_bytes)
                .and_then(|count| {
                    d.charge(count as u64 * item_cost as u64, offset)?;
                    Ok(count)
                })
                .map_err(|err| err.at(&step.path))?;
            d.out.push(count as f64);
            let item_steps = &p.steps[*pc + 1..items_end as usize];
            if count == 0 {
                // An overlong zero count is refused by the varint reader, so the check
                // above takes every empty array; this one stays because without it
                // canada's decode (arrays of floats) took ~4% more native instructions
                // (callgrind, 2026-12-05): LLVM laid out `decode_leaf_items` otherwise.
            } else if leaves {
                decode_leaf_items(d, item_steps, count).map_err(|(i, k, err)| {
                    err.at(&item_steps[k].path).within_index(i).at(&step.path)
                })?;
            } else {
                decode_items(d, p, *pc + 1, items_end as usize, count)
                    .map_err(|(i, err)| err.within_index(i).at(&step.path))?;
            }
            *pc = items_end as usize;
            return Ok(());
        }
        Op::Entries {
            end: entries_end,
            key_end,
            min_entry_bytes,
            entry_cost,
            keys,
        } => {
            decode_entries(
                d,
                p,
                *pc,
                (key_end as usize, entries_end as usize),
                (min_entry_bytes, entry_cost),
                keys,
            )
            .map_err(|err| err.at(&step.path))?;
            *pc = entries_end as usize;
            return Ok(());
        }
        Op::Presence { end: skip, cost } => {
            let offset = d.r.offset();
            if !optional::read_presence(&mut d.r).map_err(|err| err.at(&step.path))? {
                d.out.push(0.0);
                *pc = skip as usize;
                return Ok(());
            }
            d.out.push(1.0);
            d.charge(cost as u64, offset)
        }
        Op::Branch { count, table } => {
            let offset = d.r.offset();
            let k = union::read_index(&mut d.r, count).map_err(|err| err.at(&step.path))? as usize;
            d.out.push(k as f64);
            let t = table as usize;
            d.charge(p.costs[t + k] as u64, offset)
                .map_err(|err| err.at(&step.path))?;
            decode_block(d, p, p.tables[t + k] as usize, p.tables[t + k + 1] as usize)?;
            *pc = p.tables[t + count as usize] as usize;
            return Ok(());
        }
        Op::Call { block } => {
            let (s, end, cost) = p.blocks[block as usize];
            let offset = d.r.offset();
            d.enter(offset)
                .and_then(|()| d.charge(cost as u64, offset))
                .and_then(|()| decode_block(d, p, s as usize, end as usize))
                .map_err(|err| err.at(&step.path))?;
            d.depth -= 1;
            Ok(())
        }
        Op::Checked { rule } => decode_checked(d, p, rule),
        Op::Count { .. } => count(d, p, *pc),
        op => decode_leaf(d, op),
    };
    r.map_err(|err| err.at(&step.path))?;
    *pc += 1;
    Ok(())
}

/// Runs a record's or map's entries: `key_end`/`end` bound the key and value steps after
/// `pc`; each entry takes at least `min_entry_bytes` and costs `entry_cost` heap bytes.
fn decode_entries(
    d: &mut Decoding,
    p: &Program,
    pc: usize,
    (key_end, end): (usize, usize),
    (min_entry_bytes, entry_cost): (u32, u32),
    keys: Keys,
) -> Result<()> {
    let offset = d.r.offset();
    let count = d.count(min_entry_bytes)?;
    d.charge(count as u64 * entry_cost as u64, offset)?;
    d.out.push(count as f64);
    // Maps also carry the offset of their count, for the error when JS finds fewer
    // entries in the Map than in the message (keys only JS can compare).
    if keys != Keys::Record {
        d.out.push(offset as f64);
    }
    let check = KeySet::checks(keys);
    let mut set = KeySet::new(keys);
    let mut shape = if keys == Keys::Record {
        json::RecordShape::start(d, count)
    } else {
        None
    };
    // The previous kept key of a record (json::record_key predicts the next from it).
    let mut prev = json::NO_KEY;
    for i in 0..count {
        let start = d.r.offset();
        let key;
        if keys == Keys::Record {
            // A record's key is a plain string: an id in the message's key table; its
            // order and repeats checked here, its array index found once.
            let index = json::record_key(d, shape.as_mut(), &mut prev)?;
            key = d.r.since(start);
            set.order(index, start)?;
            if index.is_none() {
                set.distinct(key, start)?;
            }
        } else {
            decode_block(d, p, pc + 1, key_end).map_err(|err| entry_path(err, keys, i, 0))?;
            key = d.r.since(start);
            if check {
                set.check(key, start)
                    .map_err(|err| entry_path(err, keys, i, 0))?;
            }
        }
        decode_block(d, p, key_end, end).map_err(|err| match keys {
            Keys::Record => err.within(Segment::Field(key_text(key))),
            _ => entry_path(err, keys, i, 1),
        })?;
    }
    if let Some(shape) = shape {
        shape.end(d);
    }
    Ok(())
}

#[inline(always)]
fn decode_leaf(d: &mut Decoding, op: Op) -> Result<()> {
    match op {
        Op::Bool => boolean::decode(d),
        Op::Uint8 => integer::decode_uint8(d),
        Op::Int8 => integer::decode_int8(d),
        Op::Uint16 => integer::decode_uint16(d),
        Op::Uint32 => integer::decode_uint32(d),
        Op::Int16 => integer::decode_int16(d),
        Op::Int32 => integer::decode_int32(d),
        Op::Int => integer::decode_int(d),
        Op::Int64 => int64::decode_int64(d),
        Op::Uint64 => int64::decode_uint64(d),
        Op::Float32 => float::decode_float32(d),
        Op::Float64 => float::decode_float64(d),
        Op::Date => date::decode(d),
        Op::String => string::decode(d),
        Op::Bytes => bytes::decode(d),
        Op::Enum { count } => enumeration::decode(d, count),
        Op::Typed { elem } => typed_array::decode(d, elem),
        Op::Json => json::decode(d),
        Op::Array { .. }
        | Op::Entries { .. }
        | Op::Presence { .. }
        | Op::Branch { .. }
        | Op::Call { .. }
        | Op::Checked { .. }
        | Op::Count { .. } => unreachable!("control steps are run by the block"),
    }
}

/// Decodes `count` items of an array whose item steps are all leaves, without running a
/// block per item; an array of one leaf type loops over that type's code alone (mesh
/// decode: the arrays of numbers). Same slots and errors as `decode_block` per item.
fn decode_leaf_items(
    d: &mut Decoding,
    items: &[Step],
    count: u32,
) -> std::result::Result<(), ItemError> {
    fn each(
        d: &mut Decoding,
        count: u32,
        leaf: impl Fn(&mut Decoding) -> Result<()>,
    ) -> std::result::Result<(), ItemError> {
        for i in 0..count {
            leaf(d).map_err(|err| (i, 0, err))?;
        }
        Ok(())
    }
    match items {
        [item] => match item.op {
            Op::Float64 => each(d, count, float::decode_float64),
            Op::Float32 => each(d, count, float::decode_float32),
            Op::Uint8 => each(d, count, integer::decode_uint8),
            Op::Uint16 => each(d, count, integer::decode_uint16_item),
            Op::Uint32 => each(d, count, integer::decode_uint32),
            Op::Int32 => each(d, count, integer::decode_int32),
            Op::Int => each(d, count, integer::decode_int),
            // Strings that may be kept (`string::decode_item`).
            Op::String => each(d, count, string::decode_item),
            op => each(d, count, |d| decode_leaf(d, op)),
        },
        _ => {
            for i in 0..count {
                for (k, item) in items.iter().enumerate() {
                    decode_leaf(d, item.op).map_err(|err| (i, k, err))?;
                }
            }
            Ok(())
        }
    }
}

/// A constrained leaf on decode: the leaf's own op, then its value checked against its
/// rule. Out of line and cold, so that `decode_block` holds one copy of the leaf match, as
/// it did before constraints (see `encode_checked`; nestedEvent decode: 1691 native
/// instructions before constraints, 1704 inlined, 1648 so).
#[inline(never)]
#[cold]
fn decode_checked(d: &mut Decoding, p: &Program, rule: u32) -> Result<()> {
    let rule = &p.rules[rule as usize];
    let start = d.r.offset();
    decode_leaf(d, rule.op)?;
    verify(d, rule, start)
}

/// A `Count` step (at `pc`): the count of the array, record or map whose step follows must
/// be from `min` to `max`, checked before its items are read. A count that is not a valid
/// varint is left for that step to report. Given only `pc`, as `encode_checked`: reading
/// the next step in `decode_block`'s arm cost every schema ~2% of its native decode
/// (nestedEvent: 1685 instructions on main, 1724 so, 1657 now; person 535, 549, 528).
#[inline(never)]
#[cold]
fn count(d: &mut Decoding, p: &Program, pc: usize) -> Result<()> {
    let Op::Count { min, max } = p.steps[pc].op else {
        return Ok(());
    };
    let Ok(found) = d.r.peek_varint() else {
        return Ok(());
    };
    match array::verify_count(p.steps[pc + 1].op, min, max, found) {
        None => Ok(()),
        Some(violation) => Err(Error::new(ErrorKind::Invalid {
            offset: d.r.offset(),
            violation,
        })),
    }
}
