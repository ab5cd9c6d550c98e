#!/usr/bin/env python3
"""Writes tests/framing.json: the framing vectors of docs/FORMAT.md ("Framing"), computed
from that section alone (a varint length, the message, with checksum its CRC-32C
little-endian), with a bitwise CRC-32C, apart from shorn's own code.

    python3 scripts/framing-reference.py > tests/framing.json

The messages are written by hand from the person example of FORMAT.md ("Worked examples").
"""
import json
def crc32c(data):
    c=0xffffffff
    for b in data:
        c^=b
        for _ in range(8):
            c = (c>>1)^0x82f63b78 if c&1 else c>>1
    return c^0xffffffff
def varint(n):
    out=b''
    while n>=0x80:
        out+=bytes([(n&0x7f)|0x80]); n>>=7
    return out+bytes([n])
def frame(msg, checksum):
    return varint(len(msg))+msg+(crc32c(msg).to_bytes(4,'little') if checksum else b'')
person={"type":"object","fields":[{"name":"id","schema":{"type":"uint32"}},{"name":"name","schema":{"type":"string"}},{"name":"age","schema":{"type":"uint8"}},{"name":"active","schema":{"type":"bool"}}],"strict":False}
ada=bytes.fromhex('d209034164612401')
bob=bytes.fromhex('07'+'03'+'426f62'+'1e'+'00')  # id 7, "Bob", 30, false
string={"type":"string"}
long_s='x'*198
long_msg=varint(198)+long_s.encode()
vectors=[]
def vec(name, schema, values, msgs, checksum):
    vectors.append({"name":name,"schema":schema,"checksum":checksum,"values":values,"hex":b''.join(frame(m,checksum) for m in msgs).hex()})
A={"id":1234,"name":"Ada","age":36,"active":True}
B={"id":7,"name":"Bob","age":30,"active":False}
vec("one person", person, [A], [ada], False)
vec("one person, checksum", person, [A], [ada], True)
vec("two persons", person, [A,B], [ada,bob], False)
vec("two persons, checksum", person, [A,B], [ada,bob], True)
vec("no frames", person, [], [], False)
vec("a zero-length message (null)", {"type":"null"}, [None, None], [b'', b''], False)
vec("a zero-length message (null), checksum", {"type":"null"}, [None], [b''], True)
vec("a 200-byte message has a two-byte length", string, [long_s, "é"], [long_msg, varint(2)+"é".encode()], False)
vec("a 200-byte message, checksum", string, [long_s], [long_msg], True)
rejects=[]
def rej(name, schema, hexs, checksum, code, frame_i, offset, values, path=None, maxFrameBytes=None):
    r={"name":name,"schema":schema,"checksum":checksum,"hex":hexs,"code":code,"frame":frame_i,"offset":offset,"values":values}
    if path is not None: r["path"]=path
    if maxFrameBytes is not None: r["maxFrameBytes"]=maxFrameBytes
    rejects.append(r)
good=frame(ada,False).hex()
goodc=frame(ada,True).hex()
rej("an overlong frame length", person, "8000", False, "ERR_SHORN_MALFORMED", 0, 0, [])
rej("an overlong frame length after a good frame", person, good+"8800", False, "ERR_SHORN_MALFORMED", 1, 9, [A])
rej("a frame length over 32 bits", person, "ffffffff1f", False, "ERR_SHORN_MALFORMED", 0, 0, [])
rej("a frame length over maxFrameBytes, refused at its header", person, "09", False, "ERR_SHORN_LIMIT", 0, 0, [], maxFrameBytes=8)
rej("a large declared length, refused before any byte of it", person, good+"ffffffff0f", False, "ERR_SHORN_LIMIT", 1, 9, [A])
rej("bytes end inside a frame", person, good+"08d209", False, "ERR_SHORN_TRUNCATED", 1, 9, [A])
rej("bytes end inside a frame length", person, "80", False, "ERR_SHORN_TRUNCATED", 0, 0, [])
rej("bytes end inside a checksum", person, goodc[:-2], True, "ERR_SHORN_TRUNCATED", 0, 0, [])
bad=bytearray(frame(ada,True)); bad[3]^=0x04
rej("a flipped bit in a message is a checksum mismatch", person, goodc+bytes(bad).hex(), True, "ERR_SHORN_MALFORMED", 1, 13, [A])
bad=bytearray(frame(ada,True)); bad[-1]^=0x80
rej("a flipped bit in a checksum", person, bytes(bad).hex(), True, "ERR_SHORN_MALFORMED", 0, 0, [])
# message faults: offset and path are the message's, as decode gives them
rej("a message that ends early", person, good+"03d20903", False, "ERR_SHORN_TRUNCATED", 1, 3, [A], path="$.name")
rej("a message with a byte left over", person, good+frame(ada+b'\x00',False).hex(), False, "ERR_SHORN_TRAILING", 1, 8, [A], path="$")
rej("a malformed message", person, frame(bytes.fromhex('d2090341646124')+b'\x02',False).hex(), False, "ERR_SHORN_MALFORMED", 0, 7, [], path="$.active")
rej("a zero-length message of a schema that needs bytes", person, "00", False, "ERR_SHORN_TRUNCATED", 0, 0, [], path="$.id")
doc={"format":1,"about":"Framing vectors for docs/FORMAT.md, 'Framing', read by tests/framing.rs (cargo test) and __test__/framing.test.js (node --test), computed by scripts/framing-reference.py from that section alone. 'vectors': the frames of 'values' (each encoded with 'schema'; with 'checksum' each followed by its CRC-32C) are exactly 'hex', and decoding 'hex' gives 'values'. 'rejects': decoding 'hex' gives 'values' and then fails with 'code' in frame 'frame' (from 0); 'offset' is the stream offset of that frame for a fault of the framing, and the offset in the message (with 'path') for a fault of the message. Values in the forms of tests/golden.json.","vectors":vectors,"rejects":rejects}
print(json.dumps(doc, indent=1, ensure_ascii=False))
