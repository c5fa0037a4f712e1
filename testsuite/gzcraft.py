#!/usr/bin/python3
"""gzcraft.py - make gzip files byte by byte for zcat.tests.

Written from RFC 1951 and RFC 1952.  Python's zlib cannot make the
headers and the broken or unusual deflate streams the tests need, so
this writes them itself:

  gzcraft.py member [--name N] [--comment C] [--extra HEX] [--hcrc]
                    [--text] [--flags F] [--method M] [--mtime T]
                    [--bad-hcrc] [--bad-crc] [--bad-size] [--level L]
                    [--strategy Z_...] [--long-fields]
      a gzip member of stdin's bytes (deflated by zlib at --level,
      0 = stored blocks) on stdout, with the header fields asked for
  gzcraft.py case NAME
      one of the crafted deflate streams of CASES below, wrapped in a
      gzip member (its CRC and size are those of the bytes the case says
      it decodes to; a case meant to fail says so in its name)
  gzcraft.py list
      the names of the cases, one a line, with what each should give
  gzcraft.py expect NAME
      the bytes case NAME decodes to (nothing for a case that must fail)
  gzcraft.py flips FILE N OUTDIR
      N copies of FILE, each with one byte changed at an offset spread
      over the file (OUTDIR/flip-OFFSET-XOR)
"""
import os
import struct
import sys
import zlib
from functools import partial


class BitWriter:
    """Bits packed as deflate packs them: least significant first."""

    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.n = 0

    def bits(self, value, count):
        self.acc |= (value & ((1 << count) - 1)) << self.n
        self.n += count
        while self.n >= 8:
            self.out.append(self.acc & 0xFF)
            self.acc >>= 8
            self.n -= 8

    def huff(self, code, length):
        """A Huffman code goes most significant bit first."""
        rev = 0
        for i in range(length):
            rev |= ((code >> i) & 1) << (length - 1 - i)
        self.bits(rev, length)

    def align(self):
        if self.n:
            self.bits(0, 8 - self.n)

    def data(self):
        out = bytearray(self.out)
        if self.n:
            out.append(self.acc & 0xFF)
        return bytes(out)


def canonical(lengths):
    """RFC 1951 3.2.2: the codes of a list of code lengths."""
    maxlen = max(lengths) if lengths else 0
    count = [0] * (maxlen + 2)
    for ln in lengths:
        if ln:
            count[ln] += 1
    code, nxt = 0, [0] * (maxlen + 2)
    for bits in range(1, maxlen + 1):
        code = (code + count[bits - 1]) << 1
        nxt[bits] = code
    codes = [0] * len(lengths)
    for sym, ln in enumerate(lengths):
        if ln:
            codes[sym] = nxt[ln]
            nxt[ln] += 1
    return codes


LEN_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
            35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
LEN_EXTRA = [0] * 8 + [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4 + [0]
DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
             257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
             8193, 12289, 16385, 24577]
DIST_EXTRA = [0, 0, 0, 0] + [i // 2 for i in range(2, 28)]

FIXED_LIT = [8] * 144 + [9] * 112 + [7] * 24 + [8] * 8
FIXED_DIST = [5] * 32


class Block:
    """One Huffman block: lit/len and distance code lengths, and the
    symbols to write.  A symbol is ('lit', byte), ('match', length,
    distance), ('sym', litlen_symbol) or ('raw', value, bits)."""

    def __init__(self, lit_lengths, dist_lengths):
        self.lit = lit_lengths
        self.dist = dist_lengths
        self.lit_codes = canonical(lit_lengths)
        self.dist_codes = canonical(dist_lengths)

    def sym(self, w, s):
        w.huff(self.lit_codes[s], self.lit[s])

    def match(self, w, length, dist):
        i = max(k for k in range(29) if LEN_BASE[k] <= length)
        if length == 258:
            i = 28
        self.sym(w, 257 + i)
        w.bits(length - LEN_BASE[i], LEN_EXTRA[i])
        d = max(k for k in range(30) if DIST_BASE[k] <= dist)
        w.huff(self.dist_codes[d], self.dist[d])
        w.bits(dist - DIST_BASE[d], DIST_EXTRA[d])

    def write(self, w, symbols, end=True):
        for s in symbols:
            if s[0] == 'lit':
                self.sym(w, s[1])
            elif s[0] == 'match':
                self.match(w, s[1], s[2])
            elif s[0] == 'sym':
                self.sym(w, s[1])
            elif s[0] == 'dsym':
                w.huff(self.dist_codes[s[1]], self.dist[s[1]])
            elif s[0] == 'raw':
                w.bits(s[1], s[2])
        if end:
            self.sym(w, 256)


CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]


def dynamic_header(w, lit, dist, cl_lengths=None, cl_symbols=None,
                   hlit=None, hdist=None):
    """Write a dynamic block's header (after BFINAL/BTYPE): the code
    length code, then the lengths, plain (one symbol per length) unless
    cl_symbols gives the code length symbols to write, as (symbol,
    extra) pairs."""
    lengths = list(lit) + list(dist)
    if cl_symbols is None:
        cl_symbols = [(x, None) for x in lengths]
    if cl_lengths is None:
        used = sorted(set(s for s, _ in cl_symbols))
        cl_lengths = [0] * 19
        # A complete code: lengths from a small balanced tree.
        n = len(used)
        if n == 1:
            cl_lengths[used[0]] = 1
        else:
            bits = max(1, (n - 1).bit_length())
            # n symbols: (2^bits - n) of them one bit shorter
            short = (1 << bits) - n
            for i, s in enumerate(used):
                cl_lengths[s] = bits - 1 if i < short else bits
    hclen = 19
    while hclen > 4 and cl_lengths[CL_ORDER[hclen - 1]] == 0:
        hclen -= 1
    w.bits((len(lit) if hlit is None else hlit) - 257, 5)
    w.bits((len(dist) if hdist is None else hdist) - 1, 5)
    w.bits(hclen - 4, 4)
    for i in range(hclen):
        w.bits(cl_lengths[CL_ORDER[i]], 3)
    cl_codes = canonical(cl_lengths)
    extra_bits = {16: 2, 17: 3, 18: 7}
    for s, extra in cl_symbols:
        w.huff(cl_codes[s], cl_lengths[s])
        if s in extra_bits:
            w.bits(extra or 0, extra_bits[s])


def lengths_for(nsyms, used, maxlen=15):
    """Code lengths for nsyms symbols of which `used` get a code: a
    complete code if possible (used given as {symbol: length} or a list
    of symbols, which get a balanced code)."""
    out = [0] * nsyms
    if isinstance(used, dict):
        for s, ln in used.items():
            out[s] = ln
        return out
    n = len(used)
    bits = max(1, (n - 1).bit_length())
    short = (1 << bits) - n
    for i, s in enumerate(sorted(used)):
        out[s] = bits - 1 if i < short else bits
    return out


def gzip_member(deflated, data, flags=0, name=None, comment=None,
                extra=None, hcrc=False, bad_hcrc=False, bad_crc=False,
                bad_size=False, method=8, mtime=0, xfl=0, os_byte=3):
    """RFC 1952 2.3: header, deflated data, CRC32 and ISIZE."""
    if name is not None:
        flags |= 8
    if comment is not None:
        flags |= 16
    if extra is not None:
        flags |= 4
    if hcrc:
        flags |= 2
    head = bytearray(b'\x1f\x8b')
    head += bytes([method, flags])
    head += struct.pack('<I', mtime)
    head += bytes([xfl, os_byte])
    if extra is not None:
        head += struct.pack('<H', len(extra)) + extra
    if name is not None:
        head += name + b'\0'
    if comment is not None:
        head += comment + b'\0'
    if hcrc:
        c = zlib.crc32(bytes(head)) & 0xFFFF
        if bad_hcrc:
            c ^= 1
        head += struct.pack('<H', c)
    crc = zlib.crc32(data) ^ (1 if bad_crc else 0)
    size = (len(data) + (1 if bad_size else 0)) & 0xFFFFFFFF
    return bytes(head) + deflated + struct.pack('<II', crc, size)


def deflate_raw(data, level=6, strategy=zlib.Z_DEFAULT_STRATEGY):
    c = zlib.compressobj(level, zlib.DEFLATED, -15, 9, strategy)
    return c.compress(data) + c.flush()


# ---- the crafted cases ----------------------------------------------
# Each returns (deflate stream, the bytes it decodes to).  A name that
# starts with "bad-" must be refused; "ok-" must decode.

def block_header(w, final, btype):
    """BFINAL, then BTYPE: 0 stored, 1 fixed, 2 dynamic, 3 reserved."""
    w.bits(1 if final else 0, 1)
    w.bits(btype, 2)


def stored(w, data, final=True, nlen=None):
    """A stored block of data; nlen replaces the true NLEN when given."""
    block_header(w, final, 0)
    w.align()
    w.bits(len(data), 16)
    w.bits(0xFFFF ^ len(data) if nlen is None else nlen, 16)
    for c in data:
        w.bits(c, 8)
    return w


def fixed(symbols, final=True, end=True, w=None):
    """A fixed-code block, after what w holds already."""
    w = w or BitWriter()
    block_header(w, final, 1)
    Block(FIXED_LIT, FIXED_DIST).write(w, symbols, end)
    return w


def dynamic(lit, dist, symbols, final=True, end=True, **kw):
    w = BitWriter()
    block_header(w, final, 2)
    dynamic_header(w, lit, dist, **kw)
    Block(lit, dist).write(w, symbols, end)
    return w


def lits(data):
    return [('lit', b) for b in data]


def case_ok_fixed():
    return fixed(lits(b'abc') + [('match', 6, 3)]).data(), b'abcabcabc'


def case_ok_fixed_258():
    return (fixed([('lit', 0x41), ('match', 258, 1), ('match', 258, 1)]).data(),
            b'A' * 517)


def case_ok_stored_empty():
    return stored(BitWriter(), b'').data(), b''


def case_bad_stored_nlen():
    return stored(BitWriter(), b'aaa', nlen=0xFFFF ^ 2).data(), None


def case_bad_btype3():
    w = BitWriter()
    block_header(w, True, 3)
    w.bits(0, 16)
    return w.data(), None


def bad_fixed_lit(symbol):
    """Literal/length symbols 286 and 287 have fixed codes but no meaning."""
    return fixed(lits(b'a') + [('sym', symbol)]).data(), None


def bad_fixed_dist(dsym):
    """Distance symbols 30 and 31 likewise."""
    return fixed(lits(b'ab') + [('sym', 257), ('dsym', dsym)]).data(), None


def case_bad_dist_too_far():
    # Distance 4 after 3 bytes: before the start of the data.
    return fixed(lits(b'abc') + [('match', 3, 4)]).data(), None


def case_bad_dist_far_first():
    return fixed([('match', 3, 1)]).data(), None


def case_ok_dynamic():
    lit = lengths_for(257 + 2, [ord('a'), ord('b'), 256, 257, 258])
    dist = lengths_for(2, [0, 1])
    return (dynamic(lit, dist, lits(b'ab') + [('match', 3, 2), ('match', 4, 1)]).data(),
            b'ababa' + b'a' * 4)


def case_ok_dynamic_one_dist():
    # One distance code of length 1 (RFC 1951 3.2.7 allows it).
    lit = lengths_for(258, [ord('a'), 256, 257])
    dist = [1]
    return dynamic(lit, dist, lits(b'a') + [('match', 3, 1)]).data(), b'aaaa'


def case_ok_dynamic_no_dist():
    # No distance codes at all: one length, zero (literals only).
    lit = lengths_for(257, [ord('a'), ord('b'), 256])
    return dynamic(lit, [0], lits(b'abba')).data(), b'abba'


def case_bad_dynamic_no_dist_used():
    lit = lengths_for(258, [ord('a'), 256, 257])
    symbols = lits(b'a') + [('sym', 257), ('raw', 0, 8)]
    return dynamic(lit, [0], symbols, end=False).data(), None


def case_bad_dynamic_oversubscribed_lit():
    lit = lengths_for(257, {ord('a'): 1, ord('b'): 1, 256: 1})
    return dynamic(lit, [1], lits(b'a')).data(), None


def case_bad_dynamic_incomplete_lit():
    # Two codes of length 2: half of the code space unused.
    lit = lengths_for(257, {ord('a'): 2, 256: 2})
    return dynamic(lit, [1], lits(b'aa')).data(), None


def case_ok_dynamic_single_lit():
    # Only end-of-block, with a code of length 1: incomplete, which
    # gzip (and zlib) allow for a code of one symbol of one bit.
    lit = lengths_for(257, {256: 1})
    return dynamic(lit, [1], []).data(), b''


def case_bad_dynamic_incomplete_dist():
    lit = lengths_for(258, [ord('a'), 256, 257])
    dist = lengths_for(3, {0: 2, 1: 2, 2: 2})
    return dynamic(lit, dist, lits(b'a') + [('match', 3, 1)]).data(), None


def case_bad_dynamic_oversubscribed_dist():
    lit = lengths_for(258, [ord('a'), 256, 257])
    dist = lengths_for(3, {0: 1, 1: 1, 2: 1})
    return dynamic(lit, dist, lits(b'a')).data(), None


def case_bad_dynamic_no_eob():
    # Symbol 256 has no code: the block can never end.
    lit = lengths_for(257, [ord('a'), ord('b')])
    return dynamic(lit, [1], lits(b'abab'), end=False).data(), None


def case_ok_dynamic_repeat_first():
    # Code length symbol 16 (repeat the previous) with no previous:
    # GNU gzip repeats a length of zero (zlib refuses it).
    lit = lengths_for(257, [ord('a'), 256])
    syms = [(16, 0)] + [(x, None) for x in lit[3:]] + [(1, None)]
    return dynamic(lit, [1], lits(b'a'), cl_symbols=syms).data(), b'a'


def case_bad_dynamic_repeat_overrun():
    # A repeat that runs past HLIT + HDIST lengths.
    lit = lengths_for(257, [ord('a'), 256])
    syms = [(x, None) for x in lit[:250]] + [(18, 127)]
    return dynamic(lit, [1], lits(b'a'), cl_symbols=syms).data(), None


def case_ok_dynamic_repeat_across():
    # A run of zeros that runs from the literal lengths into the
    # distance lengths (allowed: they form one sequence).
    lit = lengths_for(260, [ord('a'), 256])
    dist = lengths_for(4, {3: 1, 2: 1})
    seq = lit + dist
    syms = []
    i = 0
    while i < len(seq):
        if seq[i] == 0:
            j = i
            while j < len(seq) and seq[j] == 0 and j - i < 138:
                j += 1
            n = j - i
            if n >= 11:
                syms.append((18, n - 11))
            elif n >= 3:
                syms.append((17, n - 3))
            else:
                syms += [(0, None)] * n
            i = j
        else:
            syms.append((seq[i], None))
            i += 1
    return dynamic(lit, dist, lits(b'aa'), cl_symbols=syms).data(), b'aa'


def bad_dynamic_counts(hlit, dist):
    """HLIT above 286 or HDIST above 30: more codes than there are."""
    lit = lengths_for(hlit, [ord('a'), 256])
    return dynamic(lit, dist, lits(b'a')).data(), None


def bad_dynamic_cl(cl_used):
    """A code length code from {symbol: length}: over or under full."""
    lit = lengths_for(257, [ord('a'), 256])
    cl = lengths_for(19, cl_used)
    return dynamic(lit, [1], lits(b'a'), cl_lengths=cl).data(), None


def case_ok_dynamic_long_codes():
    # Codes of 15 bits, the longest there is.
    used = {ord('a'): 1, ord('b'): 2, ord('c'): 3, ord('d'): 4, ord('e'): 5,
            ord('f'): 6, ord('g'): 7, ord('h'): 8, ord('i'): 9, ord('j'): 10,
            ord('k'): 11, ord('l'): 12, ord('m'): 13, ord('n'): 14,
            256: 15, 257: 15}
    lit = lengths_for(258, used)
    return dynamic(lit, [1], lits(b'nmlkjihgfedcba') + [('match', 3, 1)]).data(), \
        b'nmlkjihgfedcbaaaa'


def case_ok_two_blocks():
    w = fixed(lits(b'xy'), final=False)
    return fixed([('match', 5, 2)], w=w).data(), b'xyxyxyx'


def case_ok_match_across_blocks():
    # A stored block, then a fixed block whose match reaches into it.
    w = stored(BitWriter(), b'wxyz', final=False)
    return fixed([('match', 10, 4)], w=w).data(), b'wxyz' + b'wxyzwxyzwx'


def case_ok_dist_32768():
    # A match at the full window distance: 32768 bytes of stored data
    # then a fixed block copying from its first byte.
    data = bytes((i * 7 + (i >> 8)) & 0xFF for i in range(32768))
    w = stored(BitWriter(), data, final=False)
    return fixed([('match', 258, 32768)], w=w).data(), data + data[:258]


# Every case_ function, then the families that differ by one number.
CASES = {name[5:].replace('_', '-'): fn for name, fn in globals().items()
         if name.startswith('case_')}
CASES.update({'bad-fixed-lit%d' % s: partial(bad_fixed_lit, s) for s in (286, 287)})
CASES.update({'bad-fixed-dist%d' % d: partial(bad_fixed_dist, d) for d in (30, 31)})
CASES.update({'bad-dynamic-hlit%d' % n: partial(bad_dynamic_counts, n, [1])
              for n in (287, 288)})
CASES.update({'bad-dynamic-hdist%d' % n: partial(bad_dynamic_counts, 257,
                                                     lengths_for(n, [0, 1]))
              for n in (31, 32)})
CASES['bad-dynamic-cl-oversubscribed'] = partial(bad_dynamic_cl, {0: 1, 1: 1, 2: 1, 3: 1})
CASES['bad-dynamic-cl-incomplete'] = partial(bad_dynamic_cl, {0: 2, 1: 2})


def flips(path, n, outdir):
    data = open(path, 'rb').read()
    os.makedirs(outdir, exist_ok=True)
    size = len(data)
    for i in range(n):
        off = (i * size) // n if n <= size else i % size
        for x in (0x01, 0x80):
            b = bytearray(data)
            b[off] ^= x
            with open(os.path.join(outdir, 'flip-%d-%d' % (off, x)), 'wb') as f:
                f.write(b)


# The member options that take no value: the gzip_member arguments each sets.
MEMBER_SWITCHES = {
    '--hcrc': {'hcrc': True},
    '--bad-hcrc': {'hcrc': True, 'bad_hcrc': True},
    '--bad-crc': {'bad_crc': True},
    '--bad-size': {'bad_size': True},
    '--long-fields': {'name': b'n' * 70000, 'comment': b'c' * 70000,
                      'extra': bytes(65535)},
}


def main(argv):
    if len(argv) >= 2 and argv[1] == 'list':
        for name in sorted(CASES):
            print(name)
        return 0
    if len(argv) == 3 and argv[1] in ('case', 'expect'):
        deflated, data = CASES[argv[2]]()
        if argv[1] == 'expect':
            sys.stdout.buffer.write(data or b'')
        else:
            sys.stdout.buffer.write(gzip_member(deflated, data or b''))
        return 0
    if len(argv) == 5 and argv[1] == 'flips':
        flips(argv[2], int(argv[3]), argv[4])
        return 0
    if len(argv) >= 2 and argv[1] == 'member':
        opts = {}
        args = argv[2:]
        level = 6
        strategy = zlib.Z_DEFAULT_STRATEGY
        while args:
            a = args.pop(0)
            if a == '--name':
                opts['name'] = args.pop(0).encode()
            elif a == '--comment':
                opts['comment'] = args.pop(0).encode()
            elif a == '--extra':
                opts['extra'] = bytes.fromhex(args.pop(0))
            elif a in MEMBER_SWITCHES:
                opts.update(MEMBER_SWITCHES[a])
            elif a == '--text':
                opts['flags'] = opts.get('flags', 0) | 1
            elif a == '--flags':
                opts['flags'] = opts.get('flags', 0) | int(args.pop(0), 0)
            elif a == '--method':
                opts['method'] = int(args.pop(0))
            elif a == '--mtime':
                opts['mtime'] = int(args.pop(0))
            elif a == '--level':
                level = int(args.pop(0))
            elif a == '--strategy':
                strategy = getattr(zlib, args.pop(0))
            else:
                sys.stderr.write('gzcraft: unknown option %s\n' % a)
                return 2
        data = sys.stdin.buffer.read()
        sys.stdout.buffer.write(gzip_member(deflate_raw(data, level, strategy),
                                            data, **opts))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
