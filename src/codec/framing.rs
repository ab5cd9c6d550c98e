//! Frames (docs/FORMAT.md, "Framing"): a 32-bit varint length, the message, and with a
//! checksum the message's CRC-32C, 4 bytes little-endian. Only the fast path is here:
//! `whole_frame` finds a frame that is whole and sound. Anything else (a frame cut by the
//! end of the bytes, an overlong length, one over the limit, a checksum that does not
//! match) is left to the caller's careful path (lib/framing.js), which says what is wrong
//! and where.

use super::crc32c::crc32c;
use super::varint::read_varint;

/// Bytes of a frame's checksum.
pub const CHECKSUM_BYTES: usize = 4;

/// Where a whole frame's message is, and where the next frame starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    pub start: usize,
    pub end: usize,
    pub next: usize,
}

/// The frame at `input[pos..]`, if it is whole in `input` and sound: a canonical length
/// of at most `max_bytes`, all its message bytes, and with `checksum` a matching CRC-32C.
#[inline]
pub fn whole_frame(input: &[u8], pos: usize, checksum: bool, max_bytes: u32) -> Option<Frame> {
    let (length, header) = read_varint(input.get(pos..)?, pos).ok()?;
    if length > max_bytes {
        return None;
    }
    let start = pos + header;
    let end = start.checked_add(length as usize)?;
    let next = if checksum {
        end.checked_add(CHECKSUM_BYTES)?
    } else {
        end
    };
    if next > input.len() {
        return None;
    }
    if checksum {
        let stored =
            u32::from_le_bytes([input[end], input[end + 1], input[end + 2], input[end + 3]]);
        if crc32c(&input[start..end]) != stored {
            return None;
        }
    }
    Some(Frame { start, end, next })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_and_sound_frames_only() {
        // Ada (8 bytes) then Bob (7 bytes): FORMAT.md's example.
        let two = [
            0x08, 0xd2, 0x09, 0x03, 0x41, 0x64, 0x61, 0x24, 0x01, 0x07, 0x07, 0x03, 0x42, 0x6f,
            0x62, 0x1e, 0x00,
        ];
        let ada = whole_frame(&two, 0, false, u32::MAX).unwrap();
        assert_eq!(
            ada,
            Frame {
                start: 1,
                end: 9,
                next: 9
            }
        );
        let bob = whole_frame(&two, 9, false, u32::MAX).unwrap();
        assert_eq!(
            bob,
            Frame {
                start: 10,
                end: 17,
                next: 17
            }
        );
        assert_eq!(whole_frame(&two, 17, false, u32::MAX), None);
        // Cut anywhere: not whole.
        for cut in 0..9 {
            assert_eq!(whole_frame(&two[..cut], 0, false, u32::MAX), None);
        }
        // Over the limit, and at it.
        assert_eq!(whole_frame(&two, 0, false, 7), None);
        assert!(whole_frame(&two, 0, false, 8).is_some());
        // Overlong and over-range lengths.
        assert_eq!(whole_frame(&[0x80, 0x00], 0, false, u32::MAX), None);
        assert_eq!(
            whole_frame(&[0xff, 0xff, 0xff, 0xff, 0x1f], 0, false, u32::MAX),
            None
        );
        // Zero-length messages.
        assert_eq!(
            whole_frame(&[0x00], 0, false, 0),
            Some(Frame {
                start: 1,
                end: 1,
                next: 1
            })
        );
        assert_eq!(
            whole_frame(&[0, 0, 0, 0, 0], 0, true, 0),
            Some(Frame {
                start: 1,
                end: 1,
                next: 5
            })
        );
    }

    #[test]
    fn checksums_are_checked() {
        let mut ada = vec![0x08, 0xd2, 0x09, 0x03, 0x41, 0x64, 0x61, 0x24, 0x01];
        ada.extend_from_slice(&0xee5e_9194u32.to_le_bytes());
        assert_eq!(
            whole_frame(&ada, 0, true, u32::MAX),
            Some(Frame {
                start: 1,
                end: 9,
                next: 13
            })
        );
        for bit in 8..ada.len() * 8 {
            let mut flipped = ada.clone();
            flipped[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(whole_frame(&flipped, 0, true, u32::MAX), None, "bit {bit}");
        }
        assert_eq!(whole_frame(&ada[..12], 0, true, u32::MAX), None);
    }
}
