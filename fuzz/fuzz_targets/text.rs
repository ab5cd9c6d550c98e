//! text: decode's UTF-8 -> UTF-16 (src/codec/text.rs and its SSSE3 path,
//! src/codec/utf16_simd.rs). The first byte cuts the rest into two strings, pushed one
//! after the other into one text (so the second may widen a Latin-1 first). Each must be
//! accepted exactly when std accepts it as UTF-8, and the text must be std's UTF-16.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shorn::codec::{Text, TextBuffer};

fuzz_target!(|data: &[u8]| {
    let Some((&cut, rest)) = data.split_first() else {
        return;
    };
    let (a, b) = rest.split_at((cut as usize).min(rest.len()));
    let mut text = TextBuffer::new();
    text.start(false);
    let mut want: Vec<u16> = Vec::new();
    for s in [a, b] {
        let got = text.push_str(s, 0);
        match std::str::from_utf8(s) {
            Ok(valid) => {
                let units = valid.encode_utf16().count();
                assert_eq!(got.ok(), Some(units as f64), "{s:02x?}");
                want.extend(valid.encode_utf16());
            }
            Err(_) => {
                assert!(got.is_err(), "accepted invalid UTF-8 {s:02x?}");
                return;
            }
        }
    }
    let units: Vec<u16> = match text.text() {
        Text::Latin1(latin1) => latin1.iter().map(|&b| u16::from(b)).collect(),
        Text::Utf16(utf16) => utf16.to_vec(),
        _ => unreachable!("an unsplit text is Latin-1 or UTF-16"),
    };
    assert_eq!(units, want);
});
