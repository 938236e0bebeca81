-- Library (filter): admit(seg, cnt, k, args, base) sets a URL's k bits (offsets at args[base..base+k-1])
-- in one BITFIELD and adds the bits it flipped to counter cnt (or, given a table flips, to
-- flips[cnt], for the caller to add once per counter); returns how many it flipped.
local function admit(seg, cnt, k, args, base, flips)
  local cmd = {'BITFIELD', seg}
  for j = 0, k - 1 do
    cmd[#cmd + 1] = 'SET'
    cmd[#cmd + 1] = 'u1'
    cmd[#cmd + 1] = args[base + j]
    cmd[#cmd + 1] = 1
  end
  local old = redis.call(unpack(cmd))
  local flipped = 0
  for j = 1, #old do
    if old[j] == 0 then flipped = flipped + 1 end
  end
  if flipped > 0 then
    if flips then
      flips[cnt] = (flips[cnt] or 0) + flipped
    else
      redis.call('INCRBY', cnt, flipped)
    end
  end
  return flipped
end
