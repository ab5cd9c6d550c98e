//! The string formats the Rust core checks on decode and encode: email, uuid, ipv4 and
//! datetime, each accepting exactly the strings Zod v4's regular expression of that name
//! matches (the expressions are in lib/formats.js, for what JS judges itself;
//! __test__/formats.test.js encodes and decodes thousands of strings through these and
//! compares the verdicts with zod's). All four are ASCII grammars (`\d` in a JS expression
//! without the `u` flag is `[0-9]`), so they run on the UTF-8 bytes as they are; any other
//! byte fails them. url and ipv6 need the WHATWG URL parser and stay JS's, as patterns do
//! (JS regular expressions).
//!
//! Natively, because JS found them costly on decode: V8 ran zod's email expression on a
//! freshly sliced 15-char address in ~830 instructions a call (callgrind), a third of a
//! whole personValidated decode (3,336 instructions; 2,561 with the check here); here it
//! is a loop over bytes the decoder already holds.

use crate::program::Format;

impl Format {
    /// The format as a descriptor names it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Email => "email",
            Format::Uuid => "uuid",
            Format::Ipv4 => "ipv4",
            Format::Datetime => "datetime",
        }
    }

    /// The format the Rust core checks of this name; None for the JS ones.
    pub fn native(name: &str) -> Option<Format> {
        match name {
            "email" => Some(Format::Email),
            "uuid" => Some(Format::Uuid),
            "ipv4" => Some(Format::Ipv4),
            "datetime" => Some(Format::Datetime),
            _ => None,
        }
    }

    /// Whether the UTF-8 text `s` has this format.
    pub fn accepts(self, s: &[u8]) -> bool {
        match self {
            Format::Email => email(s),
            Format::Uuid => uuid(s),
            Format::Ipv4 => ipv4(s),
            Format::Datetime => datetime(s),
        }
    }
}

// Character classes of the email grammar, as bits of a table indexed by byte (non-ASCII
// bytes are in none).
const LOCAL: u8 = 1; // [A-Za-z0-9_'+-]
const LABEL_START: u8 = 2; // [A-Za-z0-9]
const LABEL: u8 = 4; // [A-Za-z0-9-]
const LETTER: u8 = 8; // [A-Za-z]
const EMAIL_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        let letter = b.is_ascii_alphabetic();
        let alnum = b.is_ascii_alphanumeric();
        let mut k = 0;
        if alnum || b == b'_' || b == b'\'' || b == b'+' || b == b'-' {
            k |= LOCAL;
        }
        if alnum {
            k |= LABEL_START | LABEL;
        }
        if b == b'-' {
            k |= LABEL;
        }
        if letter {
            k |= LETTER;
        }
        table[c] = k;
        c += 1;
    }
    table
};

/// Zod's "practical" email,
/// `^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$`:
/// a local part of dot-separated non-empty runs of `[A-Za-z0-9_'+-]` whose last character
/// is not `'`; `@`; two or more dot-separated labels of `[A-Za-z0-9-]` starting with a
/// letter or digit, the last of two or more letters only. (The local part has no `@`, so
/// the first `@` ends it; labels split at dots one way only, so no backtracking changes
/// the verdict.) One pass, with a table of classes, in which a character of a run costs
/// one test and the rest (the `@`, a dot, what follows a dot) is off that path. Measured
/// on four typical addresses (a Rust loop of calls, alternating processes): ~17-30 ns a
/// call, against ~24-45 ns for the byte tests before (an `@` search first, then a test of
/// each domain byte against a label start), and ~47 ns for a table-driven automaton,
/// whose steps each wait for the last one's load (the test below keeps that automaton as
/// a second, independent reading of the expression, and compares them).
pub fn email(s: &[u8]) -> bool {
    // The local part, to the first `@`: no dot first, none after another, none last; not
    // `'` last.
    let mut at = 0;
    let mut prev = b'.';
    loop {
        let Some(&c) = s.get(at) else {
            return false;
        };
        if EMAIL_CLASS[c as usize] & LOCAL == 0 {
            if c == b'@' {
                break;
            }
            if c != b'.' || prev == b'.' {
                return false;
            }
        }
        prev = c;
        at += 1;
    }
    if prev == b'.' || prev == b'\'' {
        return false;
    }
    // The domain: labels that start with a letter or digit (the first, and each after a
    // dot), then the last one, after the last dot.
    let domain = &s[at + 1..];
    let starts_label = |k: usize| {
        domain
            .get(k)
            .is_some_and(|&c| EMAIL_CLASS[c as usize] & LABEL_START != 0)
    };
    if !starts_label(0) {
        return false;
    }
    let mut last_dot = 0;
    for (k, &c) in domain.iter().enumerate() {
        if EMAIL_CLASS[c as usize] & LABEL == 0 {
            if c != b'.' || !starts_label(k + 1) {
                return false;
            }
            last_dot = k;
        }
    }
    // A dot is never first (a label starts there), so 0 means none.
    last_dot != 0
        && domain.len() - last_dot > 2
        && domain[last_dot + 1..]
            .iter()
            .all(|&c| EMAIL_CLASS[c as usize] & LETTER != 0)
}

/// `z.uuid()`: 8-4-4-4-12 hex digits of either case with version `[1-8]` and variant
/// `[89abAB]`, or the nil UUID, or the max UUID in lower case.
pub fn uuid(s: &[u8]) -> bool {
    if s == b"00000000-0000-0000-0000-000000000000" || s == b"ffffffff-ffff-ffff-ffff-ffffffffffff"
    {
        return true;
    }
    s.len() == 36
        && s.iter().enumerate().all(|(k, &c)| match k {
            8 | 13 | 18 | 23 => c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
        && (b'1'..=b'8').contains(&s[14])
        && matches!(s[19], b'8' | b'9' | b'a' | b'b' | b'A' | b'B')
}

/// `z.ipv4()`: four decimal numbers 0-255 joined by dots, without leading zeros.
pub fn ipv4(s: &[u8]) -> bool {
    let mut parts = 0;
    for part in s.split(|&c| c == b'.') {
        parts += 1;
        let number = matches!(part.len(), 1..=3)
            && part.iter().all(u8::is_ascii_digit)
            && (part.len() == 1 || part[0] != b'0')
            && part.iter().fold(0u32, |n, &c| n * 10 + (c - b'0') as u32) <= 255;
        if !number || parts > 4 {
            return false;
        }
    }
    parts == 4
}

/// Two ASCII digits at `k` as a number.
fn two_digits(s: &[u8], k: usize) -> Option<u32> {
    match s.get(k..k + 2)? {
        [a, b] if a.is_ascii_digit() && b.is_ascii_digit() => {
            Some((a - b'0') as u32 * 10 + (b - b'0') as u32)
        }
        _ => None,
    }
}

/// `HH:MM` at `k`: hours 00-23, minutes 00-59.
fn clock(s: &[u8], k: usize) -> bool {
    matches!(two_digits(s, k), Some(h) if h <= 23)
        && s.get(k + 2) == Some(&b':')
        && matches!(two_digits(s, k + 3), Some(m) if m <= 59)
}

/// `z.iso.datetime({ offset: true })`: `YYYY-MM-DDTHH:MM:SS`, a real date of the proleptic
/// Gregorian calendar (29 February when the year is divisible by 4, and by 400 if by 100;
/// year 0000 included), seconds 00-59; optionally `.` and one or more digits; then `Z` or
/// `+HH:MM` / `-HH:MM` (hours 00-23). Upper-case `T` and `Z` only.
pub fn datetime(s: &[u8]) -> bool {
    let (Some(hi), Some(lo), Some(month), Some(day)) = (
        two_digits(s, 0),
        two_digits(s, 2),
        two_digits(s, 5),
        two_digits(s, 8),
    ) else {
        return false;
    };
    if s[4] != b'-' || s[7] != b'-' || s.get(10) != Some(&b'T') {
        return false;
    }
    let year = hi * 100 + lo;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if !(1..=days).contains(&day)
        || !clock(s, 11)
        || s.get(16) != Some(&b':')
        || !matches!(two_digits(s, 17), Some(sec) if sec <= 59)
    {
        return false;
    }
    let mut k = 19;
    if s.get(k) == Some(&b'.') {
        let digits = s[k + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        k += 1 + digits;
    }
    match s.get(k) {
        Some(b'Z') => k + 1 == s.len(),
        Some(b'+' | b'-') => k + 6 == s.len() && clock(s, k + 1),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The email expression as a deterministic automaton, state by state: an independent
    /// reading of it to hold `email` against.
    fn email_automaton(s: &[u8]) -> bool {
        #[derive(Clone, Copy, PartialEq)]
        enum S {
            LocalStart,
            LocalRun,
            LocalQuote,
            DomainStart,
            FirstLabel,
            LabelStart,
            Letter,
            Letters,
            Other,
        }
        let mut state = S::LocalStart;
        for &b in s {
            let (letter, digit) = (b.is_ascii_alphabetic(), b.is_ascii_digit());
            let local = letter || digit || matches!(b, b'_' | b'+' | b'-');
            state = match (state, b) {
                (S::LocalStart | S::LocalRun | S::LocalQuote, _) if local => S::LocalRun,
                (S::LocalStart | S::LocalRun | S::LocalQuote, b'\'') => S::LocalQuote,
                (S::LocalRun | S::LocalQuote, b'.') => S::LocalStart,
                (S::LocalRun, b'@') => S::DomainStart,
                (S::DomainStart, _) if letter || digit => S::FirstLabel,
                (S::FirstLabel, _) if letter || digit || b == b'-' => S::FirstLabel,
                (S::FirstLabel | S::Letter | S::Letters | S::Other, b'.') => S::LabelStart,
                (S::LabelStart, _) if letter => S::Letter,
                (S::Letter | S::Letters, _) if letter => S::Letters,
                (S::LabelStart, _) if digit => S::Other,
                (S::Letter | S::Letters | S::Other, _) if digit || b == b'-' => S::Other,
                (S::Other, _) if letter => S::Other,
                _ => return false,
            };
        }
        state == S::Letters
    }

    #[test]
    fn email_agrees_with_the_automaton_on_random_near_misses() {
        let alphabet = b"aaaab1..-@'_+Z\xc3";
        let mut x: u64 = 88172645463325252;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut accepted = 0;
        for _ in 0..300_000 {
            let len = (next() % 14) as usize;
            let s: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            let verdict = email(&s);
            assert_eq!(
                verdict,
                email_automaton(&s),
                "{}",
                String::from_utf8_lossy(&s)
            );
            accepted += verdict as u32;
        }
        // Both sides of the line are exercised.
        assert!(accepted > 50, "{accepted}");
    }

    #[test]
    fn each_format_takes_its_examples_and_refuses_near_misses() {
        for s in [
            "ada@example.com",
            "o'brien@mail.ie",
            "first.last+tag@sub.example.org",
            "1@2.ab",
            "a-@b-.cd",
            "a'b.c'd@1.io",
            "a@b.c-d.ef",
            "_@x-y.z1.ab",
        ] {
            assert!(email(s.as_bytes()), "{s}");
        }
        for s in [
            "a'@b.cd",
            ".a@b.cd",
            "a..b@c.de",
            "a@b.c",
            "a@-b.cd",
            "a@b.c1",
            "a@b@c.de",
            "ä@b.cd",
            "a@b.co.",
            "",
            "@b.cd",
            "a.@b.cd",
            "a@.b.cd",
            "a@b..cd",
            "a@bcd",
            "a@b.-cd",
            "a@b.cd-",
            "a@b.cd\n",
        ] {
            assert!(!email(s.as_bytes()), "{s}");
        }
        assert!(uuid(b"123e4567-e89b-12d3-a456-426614174000"));
        assert!(uuid(b"00000000-0000-0000-0000-000000000000"));
        assert!(!uuid(b"FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"));
        assert!(!uuid(b"a987fbc9-4bed-9078-8f07-9141ba07c9f3"));
        assert!(ipv4(b"0.0.0.0") && ipv4(b"255.255.255.255"));
        for s in [
            "256.1.1.1",
            "01.1.1.1",
            "1.1.1",
            "1.1.1.1.1",
            "1..1.1",
            "1.1.1.1 ",
        ] {
            assert!(!ipv4(s.as_bytes()), "{s}");
        }
        for s in [
            "2024-02-29T00:00:00Z",
            "2000-02-29T23:59:59.5+02:00",
            "0000-02-29T00:00:00-23:59",
        ] {
            assert!(datetime(s.as_bytes()), "{s}");
        }
        for s in [
            "1900-02-29T00:00:00Z",
            "2024-04-31T00:00:00Z",
            "2024-06-10T24:00:00Z",
            "2024-06-10T14:53:54",
            "2024-06-10T14:53:54.Z",
            "2024-06-10T14:53:54+0200",
        ] {
            assert!(!datetime(s.as_bytes()), "{s}");
        }
    }
}
