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
