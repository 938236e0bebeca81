-- Library (filter): has(seg, k, args, base) tells whether all of a URL's k bits (offsets at
-- args[base..base+k-1]) are set, in one BITFIELD.
local function has(seg, k, args, base)
  local cmd = {'BITFIELD', seg}
  for j = 0, k - 1 do
    cmd[#cmd + 1] = 'GET'
    cmd[#cmd + 1] = 'u1'
    cmd[#cmd + 1] = args[base + j]
  end
  local bits = redis.call(unpack(cmd))
  for j = 1, #bits do
    if bits[j] == 0 then return false end
  end
  return true
end
-- block_bits(seg, from, to) reads the 512-bit block in bytes [from, to] of segment seg (the
-- offsets as the caller's strings: a Lua number passed to redis.call costs a printf): its 64 byte
-- values (0 past the end of the string), in one GETRANGE. has_block(bytes, codes) tells whether it
-- holds every bit codes packs, two character codes each: '0' + the bit's byte in the block, '0' +
-- its place in that byte (bit 0 is the first byte's highest, as BITFIELD counts). SIEVE_MASK[c]
-- is the mask of the bit whose place has code c: bits are tested with arithmetic alone, as
-- math.floor and ^ per bit cost Redis more than the rest of a put's Lua.
local SIEVE_MASK = {[48] = 128, [49] = 64, [50] = 32, [51] = 16, [52] = 8, [53] = 4, [54] = 2,
  [55] = 1}
local function block_bits(seg, from, to)
  local bytes = {string.byte(redis.call('GETRANGE', seg, from, to), 1, 64)}
  for j = #bytes + 1, 64 do bytes[j] = 0 end
  return bytes
end
local function has_block(bytes, codes)
  for j = 1, #codes, 2 do
    local mask = SIEVE_MASK[codes[j + 1]]
    if bytes[codes[j] - 47] % (mask + mask) < mask then return false end
  end
  return true
end
