//! frames: the first byte picks one of the fixed schemas (fuzz/schemas.json), the second
//! how batches run (a checksum; a maxFrameBytes of 0-45; a tape of 1-16 slots; a text
//! budget of 1-16 units), the rest is a stream of frames. Read in batches as
//! lib/framing.js reads a chunk (`decode_frames_values`; the frame a batch stops before
//! read alone; the next batch after it), the frames must give the values, and stop where,
//! reading one frame at a time (`whole_frame`, then `decode_value` of its message) does
//! (issue 37: batches must never disagree with frames read alone, whatever cuts them).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shorn::codec::framing::whole_frame;
use shorn::engine::FrameBatch;
use shorn::value::{decode_frames_values, decode_value, Value};
use shorn_fuzz::cases;

// The tape and text budget lib/ gives a batch (src/binding: TAPE_SLOTS, FRAMES_TEXT_UNITS).
const TAPE_SLOTS: usize = 4096;
const TEXT_UNITS: usize = 1 << 15;

fuzz_target!(|data: &[u8]| {
    let [pick, how, input @ ..] = data else {
        return;
    };
    let cases = cases();
    let schema = &cases[*pick as usize % cases.len()].schema;
    let small = usize::from(how >> 4);
    let checksum = how & 1 != 0;
    let max_frame_bytes = if how & 2 != 0 {
        small as u32 * 3
    } else {
        u32::MAX
    };
    let tape_slots = if how & 4 != 0 { 1 + small } else { TAPE_SLOTS };
    let text_units = if how & 8 != 0 { 1 + small } else { TEXT_UNITS };
    // A small heap budget (with the small tape's bit) stops batches early, before frames
    // that are then read alone.
    let heap_budget = if how & 4 != 0 && small & 1 != 0 {
        small as u64 * 100
    } else {
        u64::MAX
    };
    let batch = FrameBatch {
        checksum,
        max_frame_bytes,
        text_units,
        heap_budget,
    };
    let alone = |pos: usize| -> Option<(Value, usize)> {
        let frame = whole_frame(input, pos, checksum, max_frame_bytes)?;
        let value = decode_value(schema, &input[frame.start..frame.end]).ok()?;
        Some((value, frame.next))
    };

    // One frame at a time.
    let mut want = Vec::new();
    let mut stop = 0;
    while let Some((value, next)) = alone(stop) {
        want.push(value);
        stop = next;
    }

    // In batches.
    let mut got = Vec::new();
    let mut pos = 0;
    loop {
        let (values, frames) = decode_frames_values(schema, input, pos, batch, tape_slots);
        assert_eq!(values.len(), frames.count);
        assert!(frames.end >= pos && frames.end <= input.len());
        assert!(frames.heap <= heap_budget, "a batch went past its heap budget");
        assert!(
            frames.count > 0 || frames.end == pos,
            "an empty batch moved on"
        );
        got.extend(values);
        pos = frames.end;
        if frames.full {
            assert!(frames.count > 0, "a full batch decoded nothing");
            continue;
        }
        match alone(pos) {
            Some((value, next)) => {
                got.push(value);
                pos = next;
            }
            None => break,
        }
    }
    assert_eq!(pos, stop, "batches stop at {pos}, frames alone at {stop}");
    assert_eq!(got.len(), want.len());
    for (k, (a, b)) in got.iter().zip(&want).enumerate() {
        assert!(a.same(b), "frame {k}: {a:?} in a batch, {b:?} alone");
    }
});
