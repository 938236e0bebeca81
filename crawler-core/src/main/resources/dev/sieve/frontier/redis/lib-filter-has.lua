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
-- block_bits(seg, at) reads the 512-bit block at byte at of segment seg: its 64 byte values (0
-- past the end of the string), in one GETRANGE. has_block(bytes, codes) tells whether it holds
-- every bit whose position in the block codes packs, two character codes each ('0' + p / 64,
-- '0' + p % 64; bit 0 is the first byte's highest, as BITFIELD counts). SIEVE_MASK[p % 8] is bit
-- p's mask in its byte: bits are tested with arithmetic alone, as math.floor and ^ per bit cost
-- Redis more than the rest of a put's Lua.
local SIEVE_MASK = {[0] = 128, 64, 32, 16, 8, 4, 2, 1}
local function block_bits(seg, at)
  local bytes = {string.byte(redis.call('GETRANGE', seg, at, at + 63), 1, 64)}
  for j = #bytes + 1, 64 do bytes[j] = 0 end
  return bytes
end
local function has_block(bytes, codes)
  for j = 1, #codes, 2 do
    local p = (codes[j] - 48) * 64 + codes[j + 1] - 48
    local r = p % 8
    local mask = SIEVE_MASK[r]
    if bytes[(p - r) / 8 + 1] % (mask + mask) < mask then return false end
  end
  return true
end
