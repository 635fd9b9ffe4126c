local decaf = Proto("decaf", "Decaf IM wire protocol")
local f = decaf.fields
-- Header fields: one ProtoField each, generated from DecafWire's frame model (decaf wireshark-plugin splices them in here).
f.checksum_status = ProtoField.string("decaf.checksum.status", "Checksum status")
f.body = ProtoField.bytes("decaf.body", "Body")
f.tlv = ProtoField.bytes("decaf.tlv", "TLV field")
f.tlv_tag = ProtoField.uint16("decaf.tlv.tag", "Tag", base.HEX, tlv_tags)
f.tlv_length = ProtoField.uint32("decaf.tlv.length", "Length")
f.tlv_value = ProtoField.bytes("decaf.tlv.value", "Value")
f.tlv_text = ProtoField.string("decaf.tlv.text", "Text")
f.skipped = ProtoField.bytes("decaf.skipped", "Bytes before the next magic")
f.error = ProtoField.string("decaf.error", "Error")
f.summary = ProtoField.string("decaf.summary", "Summary")

local e = decaf.experts
local function label(kind) return errors[kind].name .. " (" .. errors[kind].requirement .. ")" end
e.checksum = ProtoExpert.new("decaf.checksum.bad", label("checksum"), expert.group.CHECKSUM, expert.severity.ERROR)
e.magic = ProtoExpert.new("decaf.magic.bad", label("bad_magic") .. ": skipped to the next magic", expert.group.MALFORMED, expert.severity.ERROR)
e.header = ProtoExpert.new("decaf.header.bad", "Header error", expert.group.MALFORMED, expert.severity.ERROR)
e.tlv = ProtoExpert.new("decaf.tlv.bad", "TLV error", expert.group.MALFORMED, expert.severity.ERROR)
e.zlib = ProtoExpert.new("decaf.zlib.bad", "DECOMPRESSION_FAILED", expert.group.MALFORMED, expert.severity.ERROR)
e.cut = ProtoExpert.new("decaf.body.cut", "Body cut short by the capture", expert.group.MALFORMED, expert.severity.WARN)

decaf.prefs.port = Pref.uint("TCP port", DEFAULT_PORT, "The TCP port the protocol runs on (the magic is also found on any port)")

local crc_table = {}
for i = 0, 255 do
    local c = i
    for _ = 1, 8 do
        if bit32.band(c, 1) == 1 then c = bit32.bxor(0xEDB88320, bit32.rshift(c, 1)) else c = bit32.rshift(c, 1) end
    end
    crc_table[i] = c
end

local function crc32(range)
    local crc = 0xFFFFFFFF
    local bytes = range:bytes()
    for i = 0, bytes:len() - 1 do
        crc = bit32.bxor(crc_table[bit32.band(bit32.bxor(crc, bytes:get_index(i)), 0xFF)], bit32.rshift(crc, 8))
    end
    return bit32.bxor(crc, 0xFFFFFFFF)
end

local function adler32(range)
    local a, b = 1, 0
    if range then
        local bytes = range:bytes()
        for i = 0, bytes:len() - 1 do
            a = (a + bytes:get_index(i)) % 65521
            b = (b + a) % 65521
        end
    end
    return b * 65536 + a
end

-- Whether `body` is exactly one zlib stream of `payload`, as ZLIB-1 demands: a zlib header, and an
-- Adler-32 of what it inflates to in its last 4 bytes, so nothing follows the stream.
-- Wireshark's inflater alone takes cut or trailing streams and ignores the Adler-32.
local function one_zlib_stream(body, payload)
    if body:len() < 6 then return false end
    local cmf, flg = body(0, 1):uint(), body(1, 1):uint()
    if bit32.band(cmf, 0x0F) ~= 8 or (cmf * 256 + flg) % 31 ~= 0 or bit32.band(flg, 0x20) ~= 0 then return false end
    return body(body:len() - 4, 4):uint() == adler32(payload)
end

local function byte_swapped(value)
    return bit32.bor(bit32.lshift(bit32.band(value, 0xFF), 24), bit32.lshift(bit32.band(bit32.rshift(value, 8), 0xFF), 16),
        bit32.lshift(bit32.band(bit32.rshift(value, 16), 0xFF), 8), bit32.rshift(value, 24))
end

local function field_range(tvb, name)
    return tvb(fields[name].offset, fields[name].size)
end

-- An error, as DecafWire names it: "NAME (REQ) at offset N: why". A frame has one error, its first,
-- as in `decaf dissect`; a later one (a TLV error after a checksum mismatch) only ends the walk.
local function report(state, item, expert_field, kind, offset, why)
    state.failed = true
    if state.error then return end
    local error = errors[kind]
    item:add_proto_expert_info(expert_field, error.name .. " (" .. error.requirement .. ") at offset " .. offset .. ": " .. why)
    state.error = string.format("%s(%s)@%d", error.name, error.requirement, offset)
end

-- Adds the TLV fields of `range` (at body offset `base`) to `tree` at nesting `depth`; appends
-- each tag to state.tags. Parsing stops at the first error, as a receiver's does.
local function dissect_tlv(range, base, tree, depth, state)
    local offset = 0
    local length = range:len()
    local seen = {}
    while offset < length and not state.failed do
        if length - offset < 6 then
            return report(state, tree, e.tlv, "tlv_truncated", base + offset, (length - offset) .. " bytes cannot hold a tag and a length")
        end
        local tag = range(offset, 2):uint()
        local value_length = range(offset + 2, 4):uint()
        if value_length > length - offset - 6 then
            return report(state, tree, e.tlv, "tlv_overflow", base + offset, "length " .. value_length .. " runs past the end of its sequence")
        end
        state.tags[#state.tags + 1] = string.format("%04x", tag)
        local name = tlv_tags[tag] or string.format("0x%04X", tag)
        local item = tree:add(f.tlv, range(offset, 6 + value_length))
        item:set_text(name .. " (" .. string.format("0x%04X", tag) .. "), " .. value_length .. " bytes")
        item:add(f.tlv_tag, range(offset, 2))
        item:add(f.tlv_length, range(offset + 2, 4))
        local first = seen[tag]
        seen[tag] = first or (base + offset)
        if not first and tag == CONTAINER_TAG and depth + 1 > DEPTH_LIMIT then
            return report(state, item, e.tlv, "tlv_too_deep", base + offset, "a container at depth " .. (depth + 1) .. ", deeper than " .. DEPTH_LIMIT)
        end
        if value_length > 0 then
            local value = range(offset + 6, value_length)
            if tag == CONTAINER_TAG then
                -- A repeated container is shown without its fields: parsing stops at it.
                if not first then dissect_tlv(value, base + offset + 6, item, depth + 1, state) end
            elseif text_tags[tag] then
                item:add(f.tlv_text, value)
                item:append_text(": \"" .. value:string(ENC_UTF_8) .. "\"")
            else
                item:add(f.tlv_value, value)
            end
        end
        if first then
            return report(state, item, e.tlv, "tlv_duplicate", base + offset, string.format("tag 0x%04X already at offset %d", tag, first))
        end
        offset = offset + 6 + value_length
    end
end

-- Where the next magic starts in `tvb` from `offset`, or nil.
local function next_magic(tvb, offset)
    for i = offset, tvb:len() - 4 do
        if tvb(i, 4):uint() == MAGIC then return i end
    end
    return nil
end

-- The header error of the frame at `offset`, checked in the brief's order, or nil.
local function header_error(tvb, offset)
    local major = tvb(offset + fields.version_major.offset, 1):uint()
    local minor = tvb(offset + fields.version_minor.offset, 1):uint()
    if major ~= VERSION_MAJOR then return "version_major", string.format("version %d.%d, not major %d", major, minor, VERSION_MAJOR) end
    if minor > HIGHEST_MINOR then return "version_minor", string.format("version %d.%d, newer than %d.%d", major, minor, VERSION_MAJOR, HIGHEST_MINOR) end
    local body_length = tvb(offset + fields.body_length.offset, 4):uint()
    if body_length > BODY_LIMIT then return "body_too_large", "body_length " .. body_length .. " exceeds the limit of " .. BODY_LIMIT end
    local encrypt = tvb(offset + fields.encrypt_type.offset, 1):uint()
    if encrypt > HIGHEST_ENCRYPT_TYPE then return "encryption", "encrypt_type " .. encrypt .. " is not defined" end
    local compress = tvb(offset + fields.compress_type.offset, 1):uint()
    if compress > HIGHEST_COMPRESS_TYPE then return "compression", "compress_type " .. compress .. " is not defined" end
    return nil
end

local function frame_length(tvb, pinfo, offset)
    if tvb:len() - offset >= 4 and tvb(offset, 4):uint() ~= MAGIC then
        local found = next_magic(tvb, offset + 1)
        return found and (found - offset) or (tvb:len() - offset)
    end
    -- 0 asks dissect_tcp_pdus for the next segment: the header is not complete yet.
    if tvb:len() - offset < HEADER_SIZE then return 0 end
    -- A header that breaks a rule is refused from the header alone; its body is not waited for.
    if header_error(tvb, offset) then return HEADER_SIZE end
    return HEADER_SIZE + tvb(offset + BODY_LENGTH_OFFSET, 4):uint()
end

local function dissect_frame(tvb, pinfo, tree)
    pinfo.cols.protocol = "DECAF"
    if tvb(0, 4):uint() ~= MAGIC then
        local item = tree:add(f.skipped, tvb())
        item:add_proto_expert_info(e.magic)
        return tvb:len()
    end
    local body_length = tvb(BODY_LENGTH_OFFSET, 4):uint()
    local msg_type = field_range(tvb, "msg_type"):uint()
    local subtree = tree:add(decaf, tvb(), "Decaf " .. (msg_types[msg_type] or ("UNKNOWN(" .. msg_type .. ")")))
    subtree:add(f.magic, field_range(tvb, "magic"))
    subtree:add(f.version_major, field_range(tvb, "version_major"))
    subtree:add(f.version_minor, field_range(tvb, "version_minor"))
    subtree:add(f.msg_type, field_range(tvb, "msg_type"))
    local seq_item = subtree:add(f.sequence, field_range(tvb, "sequence"))
    seq_item:add(f.seq_category, field_range(tvb, "sequence"))
    seq_item:add(f.seq_counter, field_range(tvb, "sequence"))
    subtree:add(f.timestamp, field_range(tvb, "timestamp"))
    subtree:add(f.encrypt_type, field_range(tvb, "encrypt_type"))
    subtree:add(f.compress_type, field_range(tvb, "compress_type"))
    subtree:add(f.session_id, field_range(tvb, "session_id"))
    subtree:add(f.body_length, field_range(tvb, "body_length"))
    local checksum_item = subtree:add(f.checksum, field_range(tvb, "checksum"))
    local state = { tags = {}, failed = false }
    local status = "unchecked"
    local kind, why = header_error(tvb, 0)
    if kind then
        report(state, subtree, e.header, kind, errors[kind].offset, why)
        -- An empty body has arrived whole with its header: its checksum can still be read (CRC-1: 0).
        if body_length == 0 then status = field_range(tvb, "checksum"):uint() == 0 and "correct" or "mismatch" end
    elseif tvb:len() < HEADER_SIZE + body_length then
        -- The capture lost part of the body (a gap, a snapshot length): said, and never read past.
        subtree:add_proto_expert_info(e.cut, string.format("the body is cut short: %d of its %d bytes were captured", tvb:len() - HEADER_SIZE, body_length))
    else
        local stored = field_range(tvb, "checksum"):uint()
        local body = body_length > 0 and tvb(HEADER_SIZE, body_length) or nil
        local computed = body and crc32(body) or 0
        status = "correct"
        if computed ~= stored then
            status = "mismatch"
            local text = string.format("checksum 0x%08X does not match the body's CRC-32 0x%08X", stored, computed)
            if byte_swapped(computed) == stored then text = text .. " (checksum written in little-endian, CRC-3)" end
            report(state, checksum_item, e.checksum, "checksum", errors.checksum.offset, text)
            -- The fields of a body whose checksum failed are still shown, up to their own first error.
            state.failed = false
        end
        local encrypt = field_range(tvb, "encrypt_type"):uint()
        if body then
            subtree:add(f.body, body)
            local payload = body
            if encrypt ~= OPAQUE_ENCRYPT_TYPE and field_range(tvb, "compress_type"):uint() == ZLIB then
                payload = body:uncompress("Inflated body")
                if not one_zlib_stream(body, payload) then
                    report(state, subtree, e.zlib, "zlib_stream", errors.zlib_stream.offset, "the body is not one valid zlib stream")
                    payload = nil
                elseif payload and payload:len() > BODY_LIMIT then
                    report(state, subtree, e.zlib, "zlib_limit", errors.zlib_limit.offset, "the body inflates past the limit of " .. BODY_LIMIT .. " bytes")
                    payload = nil
                end
            end
            if payload and payload:len() > 0 and encrypt ~= OPAQUE_ENCRYPT_TYPE then
                local tlv_tree = subtree:add(decaf, payload, "Body fields")
                dissect_tlv(payload, 0, tlv_tree, 0, state)
            end
        end
    end
    subtree:add(f.checksum_status, status)
    if state.error then subtree:add(f.error, state.error) end
    local summary = string.format("type=%d seq=%08x session=%04x length=%d checksum=%s tags=%s",
        msg_type, field_range(tvb, "sequence"):uint(), field_range(tvb, "session_id"):uint(), body_length, status, table.concat(state.tags, ","))
    if state.error then summary = summary .. " error=" .. state.error end
    subtree:add(f.summary, summary):set_hidden()
    pinfo.cols.info:append((msg_types[msg_type] or "UNKNOWN") .. string.format(" seq=0x%08X ", field_range(tvb, "sequence"):uint()))
    return tvb:len()
end

function decaf.dissector(tvb, pinfo, tree)
    pinfo.cols.info:clear()
    dissect_tcp_pdus(tvb, tree, 4, frame_length, dissect_frame)
    return tvb:len()
end

local function heuristic(tvb, pinfo, tree)
    if tvb:len() < 4 or tvb(0, 4):uint() ~= MAGIC then return false end
    pinfo.conversation = decaf
    decaf.dissector(tvb, pinfo, tree)
    return true
end

local registered_port = decaf.prefs.port
DissectorTable.get("tcp.port"):add(registered_port, decaf)
decaf:register_heuristic("tcp", heuristic)

function decaf.prefs_changed()
    DissectorTable.get("tcp.port"):remove(registered_port, decaf)
    registered_port = decaf.prefs.port
    DissectorTable.get("tcp.port"):add(registered_port, decaf)
end
