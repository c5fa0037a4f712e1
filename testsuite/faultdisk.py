#!/usr/bin/python3
# faultdisk.py - a failing or lying disk for the tests, served by FUSE.
#
#   /usr/bin/python3 faultdisk.py MOUNTDIR IMAGE [RULE...] &
#   # ready once MOUNTDIR/disk exists; stop with fusermount -u MOUNTDIR
#
# MOUNTDIR/disk is IMAGE, read and written through with direct_io, so that
# every read and write reaches this process with its own offset and length
# (the kernel splits large ones into requests of its own maximum size).
# Rules take byte offsets (0x... accepted); a range is [START,END):
#   bad=START-END      a read that reaches START from before it returns the
#                      bytes up to START, as a disk returns what it read
#                      before a bad sector; one that starts inside fails
#                      with EIO
#   scatter=START-END:STRIDE
#                      a bad sector at START and every STRIDE bytes after
#                      it, before END (many scattered bad sectors, found
#                      by arithmetic, not a rule each)
#   weak=START-END:N   as bad, but each sector reads correctly once a read
#                      starting at it has failed N times
#   slow=START-END:MS  a read touching the range first sleeps MS ms
#   drop=START-END     writes into the range are acknowledged, not stored
#   failwrite=START-END
#                      a write that reaches into the range fails with EIO
#                      and stores nothing, as a card's failing block does
#   corrupt=START-END  writes into the range are stored inverted (xor 0xff)
#   sector=N           the sector size that weak= counts in (512)
#   lsector=N          a logical sector size, as a block device has one: a
#                      read through a descriptor opened with O_DIRECT whose
#                      offset or length is not a multiple of N fails with
#                      EINVAL
#   disconnect=OFFSET[:ERRNO]
#                      the disk goes away: the first read that reaches OFFSET
#                      and every read after it fail with ERRNO (a name such
#                      as ENODEV or ENXIO, or a number; ENOTCONN by default)
#   vanish             with disconnect=, the file disappears too once the
#                      disk went away (stat fails with ENOENT), as the node
#                      of a USB disk that was unplugged
#   log=FILE           a line per request: "R OFFSET LENGTH RESULT" (bytes
#                      returned, or -errno) or "W OFFSET LENGTH"
#   gate=START-END:FILE
#                      a read touching the range first makes FILE.waiting,
#                      then waits until FILE exists: a test holds the disk
#                      still at a known point, acts, then lets it go
import errno
import os
import stat
import sys
import time
from itertools import chain

from fusepy import FUSE, FuseOSError, Operations


def parse_range(text):
	start, end = text.split('-', 1)
	return int(start, 0), int(end, 0)


def overlapping(rules, offset, end):
	"""The rules (start, stop, ...) whose [start, stop) meets [offset, end)."""
	return (r for r in rules if r[0] < end and r[1] > offset)


class FaultDisk(Operations):
	def __init__(self, image, rules):
		self.fd = os.open(image, os.O_RDWR)
		self.sector = 512
		self.bad = []        # (start, end)
		self.scatter = []    # (start, end, stride)
		self.weak = []       # (start, end, failures needed)
		self.slow = []       # (start, end, seconds)
		self.gates = []      # (start, end, file)
		self.drop = []
		self.corrupt = []
		self.failwrite = []
		self.failures = {}   # weak sector -> reads of it that failed
		self.log = None
		self.lsector = 0
		self.disconnect = None   # (offset, errno) of disconnect=
		self.gone = False        # the disk went away
		self.vanish = False
		for rule in rules:
			key, _, value = rule.partition('=')
			if key == 'bad':
				self.bad.append(parse_range(value))
			elif key == 'scatter':
				span, _, stride = value.partition(':')
				self.scatter.append(parse_range(span) + (int(stride, 0),))
			elif key == 'weak':
				span, _, n = value.partition(':')
				self.weak.append(parse_range(span) + (int(n, 0),))
			elif key == 'slow':
				span, _, ms = value.partition(':')
				self.slow.append(parse_range(span) + (int(ms, 0) / 1000.0,))
			elif key == 'gate':
				span, _, path = value.partition(':')
				self.gates.append(parse_range(span) + (path,))
			elif key == 'drop':
				self.drop.append(parse_range(value))
			elif key == 'corrupt':
				self.corrupt.append(parse_range(value))
			elif key == 'failwrite':
				self.failwrite.append(parse_range(value))
			elif key == 'sector':
				self.sector = int(value, 0)
			elif key == 'lsector':
				self.lsector = int(value, 0)
			elif key == 'disconnect':
				at, _, err = value.partition(':')
				if not err:
					err = 'ENOTCONN'
				code = getattr(errno, err, None) if err[0].isalpha() else int(err, 0)
				if code is None:
					sys.exit('faultdisk: unknown errno ' + err)
				self.disconnect = (int(at, 0), code)
			elif key == 'vanish' and not value:
				self.vanish = True
			elif key == 'log':
				self.log = open(value, 'a', buffering=1)
			else:
				sys.exit('faultdisk: unknown rule ' + rule)

	def note(self, line):
		if self.log:
			self.log.write(line + '\n')

	def first_failing(self, offset, end):
		"""The first byte in [offset, end) that fails to read now, or None."""
		return min(chain(self.bad_starts(offset, end),
				 self.scattered_starts(offset, end),
				 self.weak_starts(offset, end)), default=None)

	# Each kind of rule: the first failing byte in [offset, end) of each
	# of its ranges that has one.
	def bad_starts(self, offset, end):
		for start, stop in overlapping(self.bad, offset, end):
			yield max(start, offset)

	def scattered_starts(self, offset, end):
		for start, stop, stride in overlapping(self.scatter, offset, end):
			at = max(start, offset)
			# the bad sector holding at, or the next one
			k = (at - start) // stride
			if at >= start + k * stride + self.sector:
				k += 1
			bad = start + k * stride
			if bad < min(stop, end):
				yield max(bad, offset)

	def weak_starts(self, offset, end):
		for start, stop, need in overlapping(self.weak, offset, end):
			at = max(start, offset)
			at -= (at - start) % self.sector
			while at < min(stop, end):
				if self.failures.get(at, 0) < need:
					yield max(at, offset)
					break
				at += self.sector

	def wait_at_gates(self, offset, end):
		for start, stop, path in overlapping(self.gates, offset, end):
			if not os.path.exists(path):
				open(path + '.waiting', 'w').close()
				while not os.path.exists(path):
					time.sleep(0.01)

	def getattr(self, path, fh=None):
		if path == '/':
			return {'st_mode': stat.S_IFDIR | 0o755, 'st_nlink': 2}
		if path != '/disk' or (self.gone and self.vanish):
			raise FuseOSError(errno.ENOENT)
		size = os.fstat(self.fd).st_size
		return {'st_mode': stat.S_IFREG | 0o644, 'st_nlink': 1,
			'st_size': size, 'st_blocks': (size + 511) // 512}

	def readdir(self, path, fh):
		return ['.', '..'] + ([] if self.gone and self.vanish else ['disk'])

	def open(self, path, flags):
		if path != '/disk' or (self.gone and self.vanish):
			raise FuseOSError(errno.ENOENT)
		# The handle says whether reads must be aligned (lsector=).
		return 1 if flags & os.O_DIRECT else 0

	def read(self, path, size, offset, fh):
		want, end = size, offset + size
		if self.disconnect and end > self.disconnect[0]:
			self.gone = True
		if self.gone:
			code = self.disconnect[1]
			self.note('R %d %d -%d' % (offset, want, code))
			raise FuseOSError(code)
		if fh and self.lsector and (offset % self.lsector or size % self.lsector):
			self.note('R %d %d -%d' % (offset, want, errno.EINVAL))
			raise FuseOSError(errno.EINVAL)
		for start, stop, seconds in overlapping(self.slow, offset, end):
			time.sleep(seconds)
		self.wait_at_gates(offset, end)
		failing = self.first_failing(offset, end)
		if failing == offset:
			for start, stop, _ in self.weak:
				if start <= offset < stop:
					at = offset - (offset - start) % self.sector
					self.failures[at] = self.failures.get(at, 0) + 1
			self.note('R %d %d -%d' % (offset, want, errno.EIO))
			raise FuseOSError(errno.EIO)
		if failing is not None:
			size = failing - offset
		data = os.pread(self.fd, size, offset)
		self.note('R %d %d %d' % (offset, want, len(data)))
		return data

	def write(self, path, data, offset, fh):
		if any(overlapping(self.failwrite, offset, offset + len(data))):
			self.note('W %d %d -%d' % (offset, len(data), errno.EIO))
			raise FuseOSError(errno.EIO)
		self.note('W %d %d' % (offset, len(data)))
		data = bytearray(data)
		for start, stop in self.corrupt:
			for at in range(max(start, offset), min(stop, offset + len(data))):
				data[at - offset] ^= 0xff
		# Store the pieces outside the dropped ranges only.
		keep = [(offset, offset + len(data))]
		for start, stop in self.drop:
			pieces = []
			for a, b in keep:
				if stop <= a or start >= b:
					pieces.append((a, b))
					continue
				if a < start:
					pieces.append((a, start))
				if stop < b:
					pieces.append((stop, b))
			keep = pieces
		for a, b in keep:
			os.pwrite(self.fd, bytes(data[a - offset:b - offset]), a)
		return len(data)

	def truncate(self, path, length, fh=None):
		os.ftruncate(self.fd, length)

	def flush(self, path, fh):
		return 0

	def fsync(self, path, datasync, fh):
		os.fsync(self.fd)
		return 0

	def release(self, path, fh):
		return 0


def main():
	if len(sys.argv) < 3:
		sys.exit('usage: faultdisk.py MOUNTDIR IMAGE [RULE...]')
	disk = FaultDisk(sys.argv[2], sys.argv[3:])
	FUSE(disk, sys.argv[1], foreground=True, nothreads=True,
	     direct_io=True)


if __name__ == '__main__':
	main()
