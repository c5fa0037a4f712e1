#!/usr/bin/python3
# xz_craft.py - write .xz files made field by field into the current
# directory, for xzcat.tests to compare xzcat with xz on: each holds
# "Hello\nWorld!\n" in stored LZMA2 chunks, with one field of the block
# header, the LZMA2 chunks, the index, the footer or the stream header
# changed (its CRC32 made right again where the change should not be
# caught by it).  The names say what changed.  Files that need one of
# zerobox's filters are named filter-NAME-*.xz (NAME as in FEATURE_XZ_NAME,
# lower case); filters zerobox does not have (PowerPC, IA-64, SPARC) go
# to absent-*.xz.
import struct
import zlib

MAGIC = b'\xfd7zXZ\x00'
DATA = b'Hello\nWorld!\n'


def crc32(b):
    return zlib.crc32(b) & 0xffffffff


def vli(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7f) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def check_size(check):
    return 0 if check == 0 else 4 << ((check - 1) // 3)


def check_field(check, data):
    if check == 1:
        return struct.pack('<I', crc32(data))
    return b'\0' * check_size(check)


def stream_header(check=1, flags=None):
    f = flags if flags is not None else bytes([0, check])
    return MAGIC + f + struct.pack('<I', crc32(f))


def block_header(filters=((0x21, b'\x08'),), csize=None, usize=None,
                 extra_pad=0, flags_extra=0):
    flags = (len(filters) - 1) | flags_extra
    body = bytearray()
    if csize is not None:
        flags |= 0x40
        body += vli(csize)
    if usize is not None:
        flags |= 0x80
        body += vli(usize)
    for fid, props in filters:
        body += vli(fid) + vli(len(props)) + props
    n = 2 + len(body)
    size = (n + 4 + 3) // 4 * 4 + extra_pad
    h = bytes([size // 4 - 1, flags]) + bytes(body) + b'\0' * (size - 4 - n)
    return h + struct.pack('<I', crc32(h))


def index(records):
    b = b'\0' + vli(len(records))
    for unpadded, size in records:
        b += vli(unpadded) + vli(size)
    b += b'\0' * ((4 - len(b) % 4) % 4)
    return b + struct.pack('<I', crc32(b))


def footer(index_bytes, flags):
    f = struct.pack('<I', len(index_bytes) // 4 - 1) + flags
    return struct.pack('<I', crc32(f)) + f + b'YZ'


def stored(data, control=1):
    return bytes([control]) + struct.pack('>H', len(data) - 1) + data


LZMA2 = stored(DATA) + b'\x00'


def stream(header, lzma2=LZMA2, check=1, records=None, mangle_index=None,
           mangle_footer=None, flags=None):
    pad = b'\0' * ((4 - len(lzma2) % 4) % 4)
    ck = check_field(check, DATA)
    if records is None:
        records = [(len(header) + len(lzma2) + len(ck), len(DATA))]
    ix = index(records)
    if mangle_index:
        ix = mangle_index(ix)
    f = flags if flags is not None else bytes([0, check])
    ft = footer(ix, f)
    if mangle_footer:
        ft = mangle_footer(ft)
    return stream_header(check, flags) + header + lzma2 + pad + ck + ix + ft


def with_crc(b):
    return b[:-4] + struct.pack('<I', crc32(b[:-4]))


def write(name, data):
    with open(name + '.xz', 'wb') as f:
        f.write(data)


def block_headers():
    write('craft-plain', stream(block_header()))
    for bit in (0x04, 0x08, 0x10, 0x20):
        write('craft-bh-flags-%02x' % bit, stream(block_header(flags_extra=bit)))
    h = bytearray(block_header(extra_pad=4))
    h[-5] = 7
    write('craft-bh-padding', stream(with_crc(bytes(h))))
    h = bytearray(block_header())
    h[-1] ^= 1
    write('craft-bh-crc', stream(bytes(h)))
    for name, csize in (('0', 0), ('small', len(LZMA2) - 1), ('right', len(LZMA2)),
                        ('big', len(LZMA2) + 1), ('huge', (1 << 63) - 1)):
        write('craft-csize-' + name, stream(block_header(csize=csize)))
    for usize in (0, 12, 13, 14):
        write('craft-usize-%d' % usize, stream(block_header(usize=usize)))
    for props in (b'', b'\x08\x00', b'\x28', b'\x29', b'\x3f', b'\x48', b'\x88'):
        write('craft-lzma2-props-' + (props.hex() or 'none'),
              stream(block_header(filters=((0x21, props),))))


FILTER_NAMES = {0x03: 'delta', 0x04: 'x86', 0x07: 'arm', 0x08: 'armthumb', 0x0a: 'arm64'}


def filter_name(fid, what):
    """craft-WHAT, or filter-NAME-WHAT for a filter zerobox has."""
    if fid in FILTER_NAMES:
        return 'filter-%s-%s' % (FILTER_NAMES[fid], what)
    return 'craft-' + what


def filter_chains():
    for fid in (0x03, 0x04, 0x07, 0x08, 0x0a, 0x0b, 0x0c, 0x20, 0x22, 0x7f,
                0x4000, (1 << 62) - 1, 1 << 62, (1 << 63) - 1):
        props = b'\x00' if fid == 3 else b''
        write(filter_name(fid, 'chain-%x' % fid),
              stream(block_header(filters=((fid, props), (0x21, b'\x08')))))
    for fid in (0x05, 0x06, 0x09):
        write('absent-filter-%x' % fid,
              stream(block_header(filters=((fid, b''), (0x21, b'\x08')))))
    write('craft-chain-lzma2-lzma2', stream(block_header(filters=((0x21, b'\x08'),) * 2)))
    write('craft-chain-delta-alone', stream(block_header(filters=((0x03, b'\x00'),))))
    write('craft-chain-lzma2-x86', stream(block_header(filters=((0x21, b'\x08'), (0x04, b'')))))
    write('filter-delta-chain-4', stream(block_header(filters=(
        (0x03, b'\x00'), (0x03, b'\x01'), (0x03, b'\x02'), (0x21, b'\x08')))))
    for fid in (0x04, 0x07, 0x08, 0x0a):
        for start in (b'\x01', b'\x00\x00', b'\x01\x00\x00\x00', b'\x02\x00\x00\x00',
                      b'\x04\x00\x00\x00', b'\x00\x00\x00\x00\x00'):
            write(filter_name(fid, 'start-' + start.hex()),
                  stream(block_header(filters=((fid, start), (0x21, b'\x08')))))
    for props in (b'', b'\x00\x00', b'\xff'):
        write('filter-delta-props-' + (props.hex() or 'none'),
              stream(block_header(filters=((0x03, props), (0x21, b'\x08')))))


def lzma2_chunks():
    # After the block's uncompressed size: what xz calls corrupt and
    # what it calls truncated depends on the bytes after.
    h = block_header(usize=13)
    for tail in (b'\x01', b'\x01\x00', b'\x01\x00\x00', b'\x02', b'\x02\x00',
                 b'\x02\x00\x00', b'\x02\x00\x00X', b'\x03', b'\x80\x00\x00\x00\x05',
                 b'\xc0\x00\x00\x00\x05\x5d', b'\xe0', b'\xe0\x00', b'\x00'):
        write('craft-after-usize-' + tail.hex(), stream_header() + h + stored(DATA) + tail)
    h = block_header(usize=12)
    write('craft-usize-inside-chunk', stream_header() + h + stored(DATA))
    write('craft-first-chunk-02', stream(block_header(), stored(DATA, 2) + b'\x00'))
    write('craft-two-chunks', stream(block_header(), stored(DATA[:5]) + stored(DATA[5:], 2) + b'\x00'))
    write('craft-chunk-short', stream(block_header(), b'\x01\x00\x20' + DATA + b'\x00'))


def indexes():
    h = block_header()
    up = len(h) + len(LZMA2) + 4
    write('craft-index-none', stream(h, records=[]))
    write('craft-index-two', stream(h, records=[(up, 13), (up, 13)]))
    write('craft-index-unpadded-plus1', stream(h, records=[(up + 1, 13)]))
    write('craft-index-unpadded-4', stream(h, records=[(4, 13)]))
    write('craft-index-size-plus1', stream(h, records=[(up, 14)]))
    write('craft-index-padding', stream(h, mangle_index=lambda ix: with_crc(ix[:-5] + b'\x01' + ix[-4:])))
    write('craft-index-crc', stream(h, mangle_index=lambda ix: ix[:-1] + bytes([ix[-1] ^ 1])))
    write('craft-index-vli', stream(h, mangle_index=lambda ix: with_crc(b'\x00\x81\x00' + ix[2:])))
    # The same needless zero byte with the padding made right, so that
    # only the byte itself is wrong.
    write('craft-index-vli-padded', stream(h, mangle_index=lambda ix: with_crc(b'\x00\x81\x00' + ix[2:4] + b'\0\0\0' + ix[-4:])))
    # Cut inside the index's CRC32, after a right and after a wrong byte
    # (xz compares it a byte at a time).
    whole = stream(h)
    at = len(whole) - 12 - 4
    write('craft-index-crc-cut', whole[:at + 2])
    write('craft-index-crc-wrong-cut', whole[:at + 1] + bytes([whole[at + 1] ^ 1]))
    # Records that differ from the blocks, cut before and in the CRC32.
    wrong = stream(h, records=[(up, 14)])
    write('craft-index-size-cut-padding', wrong[:at - 1])
    write('craft-index-size-cut-crc', wrong[:at + 1])
    # Two blocks whose records come in the index in the wrong order (the
    # counts and sums agree), and in the right one.
    blocks, records = b'', []
    for part in (DATA[:5], DATA[5:]):
        chunks = stored(part) + b'\x00'
        blocks += h + chunks + b'\0' * ((4 - len(chunks) % 4) % 4) + check_field(1, part)
        records.append((len(h) + len(chunks) + 4, len(part)))
    for name, recs in (('right', records), ('swapped', records[::-1])):
        ix = index(recs)
        write('craft-index-order-' + name, stream_header() + blocks + ix + footer(ix, b'\x00\x01'))


def footers():
    h = block_header()

    def flags(f):
        return lambda ft: struct.pack('<I', crc32(ft[4:8] + f)) + ft[4:8] + f + b'YZ'

    def backward(ft):
        b = struct.pack('<I', struct.unpack('<I', ft[4:8])[0] + 1) + ft[8:10]
        return struct.pack('<I', crc32(b)) + b + b'YZ'
    write('craft-footer-backward', stream(h, mangle_footer=backward))
    write('craft-footer-flags-check', stream(h, mangle_footer=flags(b'\x00\x04')))
    write('craft-footer-flags-reserved', stream(h, mangle_footer=flags(b'\x00\x11')))
    write('craft-footer-magic', stream(h, mangle_footer=lambda ft: ft[:-1] + b'X'))
    write('craft-footer-crc', stream(h, mangle_footer=lambda ft: bytes([ft[0] ^ 1]) + ft[1:]))


def stream_headers():
    h = block_header()
    for check in range(16):
        write('craft-check-%d' % check, stream(h, check=check))
    for f in (b'\x00\x10', b'\x01\x01', b'\x00\x81'):
        write('craft-stream-flags-' + f.hex(), stream(h, flags=f))


block_headers()
filter_chains()
lzma2_chunks()
indexes()
footers()
stream_headers()
