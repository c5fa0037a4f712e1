/*
 * verify_hash.c - conv=verify's chunk hash, and the hashes of the chunks
 * the copy writes, one per chunk by its index, in one mapping that grows
 * with the output.
 */
#include <string.h>

#include "verify.h"

/*
 * A streaming 64-bit hash, four independent lanes over 32-byte stripes
 * so that the multiplications overlap.  It only has to tell a chunk from
 * a damaged copy of itself, never resist an attacker: each lane step
 * (xor in a word, multiply by an odd constant, fold the high half down)
 * is a bijection of the lane, so no single changed word can go unseen.
 */
#define MIX_A 0x9fb21c651e98df25ULL
#define MIX_B 0xc2b2ae3d27d4eb4fULL
#define MIX_C 0x165667b19e3779f9ULL

static uint64_t load64(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

static uint64_t lane_step(uint64_t lane, uint64_t word)
{
	lane = (lane ^ word) * MIX_A;
	return lane ^ (lane >> 32);
}

static uint64_t avalanche(uint64_t h)
{
	h ^= h >> 33;
	h *= MIX_B;
	h ^= h >> 29;
	h *= MIX_C;
	return h ^ (h >> 32);
}

void hasher_reset(struct chunk_hasher *h)
{
	h->lane[0] = MIX_A;
	h->lane[1] = MIX_B;
	h->lane[2] = MIX_C;
	h->lane[3] = MIX_A ^ MIX_B;
	h->length = 0;
	h->pending_len = 0;
}

static void hash_stripes(void *hasher, const unsigned char *p, size_t stripes)
{
	struct chunk_hasher *h = hasher;
	uint64_t a = h->lane[0], b = h->lane[1], c = h->lane[2], d = h->lane[3];

	for (; stripes; stripes--, p += STRIPE) {
		a = lane_step(a, load64(p));
		b = lane_step(b, load64(p + 8));
		c = lane_step(c, load64(p + 16));
		d = lane_step(d, load64(p + 24));
	}
	h->lane[0] = a;
	h->lane[1] = b;
	h->lane[2] = c;
	h->lane[3] = d;
}

void hasher_update(struct chunk_hasher *h, const unsigned char *p,
			  size_t len)
{
	h->length += len;
	feed_blocks(h->pending, &h->pending_len, STRIPE, p, len, hash_stripes, h);
}

uint64_t hasher_final(const struct chunk_hasher *h)
{
	uint64_t sum = h->length * MIX_C;
	size_t i;

	for (i = 0; i < 4; i++)
		sum = lane_step(sum, avalanche(h->lane[i]));
	/* The tail: whole bytes, one at a time, each in its own position. */
	for (i = 0; i < h->pending_len; i++)
		sum = lane_step(sum, ((uint64_t)h->pending[i] << 8) | i);
	return avalanche(sum);
}

/* Room for the hashes of a range of size bytes (it grows past that). */
void map_hashes(struct dd_verify_state *v, uint64_t size)
{
	uint64_t chunks = size / CHUNK_SIZE + 1;

	if (lazy_buffer_alloc(&v->hashes, chunks * sizeof(uint64_t)) != 0)
		die_memory_exhausted("verify", chunks * sizeof(uint64_t));
}

/* The chunk an output offset at or after v->start is in. */
uint64_t chunk_of(const struct dd_verify_state *v, uint64_t offset)
{
	return (offset - v->start) / CHUNK_SIZE;
}

/* Keep the hash of the bytes of chunk v->chunk written so far; the
 * hasher starts again. */
void store_hash(struct dd_verify_state *v)
{
	uint64_t need = (v->chunk + 1) * sizeof(uint64_t);

	if (need > v->hashes.capacity
	    && lazy_buffer_grow(&v->hashes, need * 2) != 0)
		die_memory_exhausted("verify", need * 2);
	((uint64_t *)(void *)v->hashes.data)[v->chunk] = hasher_final(&v->hasher);
	hasher_reset(&v->hasher);
}

/* Hash len bytes that go to the output at v->next, each into its chunk:
 * a chunk's hash covers the bytes written in it, in order, wherever
 * they lie in it. */
void note_bytes(struct dd_verify_state *v, const unsigned char *data,
		       size_t len)
{
	while (len) {
		uint64_t chunk = chunk_of(v, v->next);
		uint64_t room = CHUNK_SIZE - (v->next - v->start) % CHUNK_SIZE;
		size_t take = len < room ? len : (size_t)room;

		if (chunk != v->chunk) {
			if (v->hasher.length)
				store_hash(v);
			v->chunk = chunk;
		}
		hasher_update(&v->hasher, data, take);
		v->next += take;
		data += take;
		len -= take;
	}
}

uint64_t stored_hash(const struct dd_verify_state *v, uint64_t chunk)
{
	return ((const uint64_t *)(const void *)v->hashes.data)[chunk];
}

/* Where the first byte that is not zero is, or len. */
size_t first_nonzero(const unsigned char *p, size_t len)
{
	size_t i = 0;

	if (bb_is_all_zero(p, len))
		return len;
	while (!p[i])
		i++;
	return i;
}

/* Where a and b first differ, or len. */
size_t first_difference(const unsigned char *a, const unsigned char *b,
			size_t len)
{
	size_t i = 0;

	if (memcmp(a, b, len) == 0)
		return len;
	while (a[i] == b[i])
		i++;
	return i;
}
