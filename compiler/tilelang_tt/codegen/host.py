"""Render main.cpp, the host program, from the plan (``plan.build_plan``): a normal SDK host program on the
mesh API that defines ``tilelang_tt_run`` (the compiler ↔ device contract) and a standalone ``main``.

Every list in it comes from a plan table: buffers from ``tensors``, circular buffers from
``circular_buffers``, kernels and their compile-time arguments from ``kernels``, and each kernel's
runtime-argument vector from its ``runtime_args`` schema applied to ``core_work`` — the same schema the
kernels' ``get_arg_val`` indices were generated from. The sizes of the problem (tensor sizes, the per-core
work table, the kernels' size arguments) are not in the text: the program reads them from its ``sizes``
argument (host_sizes.py), so one built object serves every shape of the program.
"""

from __future__ import annotations

import re

from .. import multicast, sharding
from ..host_sizes import HostSizes, core_fields, host_name, window_field
from ..target import TILE
from .formatting import INDENT, annotated_list, assigned_call, packed_call, wrap_comment

# C++ type of one element as callers pass it (numpy's layout: bool is one byte).
ELEMENT_TYPE = {
    "bfloat16": "uint16_t",
    "float16": "uint16_t",
    "float32": "float",
    "bool": "uint8_t",
    "int8": "int8_t",
    "uint8": "uint8_t",
    "int16": "int16_t",
    "uint16": "uint16_t",
    "int32": "int32_t",
    "uint32": "uint32_t",
    "bfloat8_b": "float",  # block-float tensors: float32 on the host, packed into tiles on the way in
    "bfloat4_b": "float",
}
# A block-float tensor's host library calls (tt-metalium/<header>): pack tiles in face order into words, and
# back. The words are what the device buffer holds.
BLOCK_FLOAT_CALLS = {
    "bfloat8_b": ("bfloat8.hpp", "pack_as_bfp8_tiles<float>", "unpack_bfp8_tiles_into_float_vec"),
    "bfloat4_b": ("bfloat4.hpp", "pack_as_bfp4_tiles<float>", "unpack_bfp4_tiles_into_float_vec"),
}
ELEMENT_BYTES = {"uint8_t": 1, "int8_t": 1, "uint16_t": 2, "int16_t": 2}
# What one page of a tensor holds, where that depends on the shape (a tile page is always one tile).
_PAGE_OF = {"row_major": "one row of", "table": "all of (32-bit words)"}
BUFFER_TYPE = {"DRAM": "BufferType::DRAM", "L1": "BufferType::L1"}


def _elements(shape) -> int:
    n = 1
    for extent in shape:
        n *= int(extent)
    return n


def _stored_shape(t: dict) -> list[int]:
    """The tensor's dimensions in the order it is stored in DRAM (the plan's ``dim_order``)."""
    return [t["shape"][d] for d in t["dim_order"]]


def _is_permuted(t: dict) -> bool:
    return t["dim_order"] != list(range(len(t["shape"])))


def _slices(t: dict) -> tuple[int, int, int, int, int]:
    """(leading slices, rows, cols, padded rows, padded cols) of a tensor in stored order and its tile view
    (the plan's ``view``, padded by ``ir_utils.tile_view_shape``): each slice's rows x cols sit at the top
    left of padded rows x padded cols in the view."""
    shape = _stored_shape(t)
    slices = _elements(shape[:-2])
    return slices, shape[-2], shape[-1], t["view"][0] // slices, t["view"][1]


def _slice_sizes(t: dict, sizes: HostSizes) -> list[str]:
    """``_slices`` of the tensor as the names of host sizes."""
    n = host_name(t["name"])
    what = (
        "slices",
        "rows of a slice",
        "columns of a slice",
        "rows of a slice's tile view",
        "tile view columns",
    )
    names = ("slices", "slice_rows", "slice_cols", "padded_rows", "padded_cols")
    return [
        sizes.size(f"{n}_{name}", value, f"{meaning} of {t['name']}")
        for name, meaning, value in zip(names, what, _slices(t), strict=True)
    ]


def _is_padded(t: dict) -> bool:
    return _elements(t["shape"]) != t["view"][0] * t["view"][1]


# Between a tensor's own row-major layout and its padded tile view (emitted when some tensor is padded).
_PADDING_HELPERS = [
    "// Copies each of `slices` rows x cols row-major blocks of `tensor` into the top left of a",
    "// padded_rows x padded_cols block of the tile view; the rest of the view is zeros (TileLang reads",
    "// them as 0).",
    "template <typename T>",
    "std::vector<T> pad_to_tile_view(const T* tensor, uint32_t slices, uint32_t rows, uint32_t cols, "
    "uint32_t padded_rows,",
    "                                uint32_t padded_cols) {",
    "std::vector<T> view(static_cast<size_t>(slices) * padded_rows * padded_cols, T{0});",
    "for (uint32_t s = 0; s < slices; ++s) {",
    "for (uint32_t r = 0; r < rows; ++r) {",
    "std::memcpy(&view[(static_cast<size_t>(s) * padded_rows + r) * padded_cols],",
    "            &tensor[(static_cast<size_t>(s) * rows + r) * cols], cols * sizeof(T));",
    "}",
    "}",
    "return view;",
    "}",
    "",
    "// The inverse: the tensor's elements out of its tile view (writes into the padding are dropped).",
    "template <typename T>",
    "void crop_tile_view(const std::vector<T>& view, T* tensor, uint32_t slices, uint32_t rows, "
    "uint32_t cols,",
    "                    uint32_t padded_rows, uint32_t padded_cols) {",
    "for (uint32_t s = 0; s < slices; ++s) {",
    "for (uint32_t r = 0; r < rows; ++r) {",
    "std::memcpy(&tensor[(static_cast<size_t>(s) * rows + r) * cols],",
    "            &view[(static_cast<size_t>(s) * padded_rows + r) * padded_cols], cols * sizeof(T));",
    "}",
    "}",
    "}",
    "",
]


# A scalar table (a float tensor the reader reads one value of per block) is float32 words on the device.
_FLOAT_TABLE_HELPERS = [
    "// The float32 a bfloat16's bits hold: its upper half.",
    "float bfloat16_value(uint16_t bits) {",
    "const uint32_t word = static_cast<uint32_t>(bits) << 16;",
    "float value;",
    "std::memcpy(&value, &word, sizeof value);",
    "return value;",
    "}",
    "",
    "// The float32 an IEEE half's bits hold (subnormals, infinities and NaN included).",
    "float float16_value(uint16_t bits) {",
    "const int exponent = (bits >> 10) & 0x1f;",
    "const int mantissa = bits & 0x3ff;",
    "float magnitude;",
    "if (exponent == 0x1f) {",
    "magnitude = mantissa != 0 ? std::numeric_limits<float>::quiet_NaN() : "
    "std::numeric_limits<float>::infinity();",
    "} else if (exponent == 0) {",
    "magnitude = std::ldexp(static_cast<float>(mantissa), -24);",
    "} else {",
    "magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);",
    "}",
    "return (bits & 0x8000) != 0 ? -magnitude : magnitude;",
    "}",
    "",
]
_FLOAT_TABLE_VALUE = {"bfloat16": "bfloat16_value", "float16": "float16_value"}

# A sharded tensor whose shards carry halos (sharding.py): the host writes an input's shards widened by copies
# of their neighbours' tiles (the halo exchange ttnn runs on the device before a convolution; a program that
# writes such a tensor makes the copies itself), and reads an output's own tiles back out of its shards.
_HALO_HELPERS = [
    "// The tiles of a tile_rows x tile_cols tensor (row-major, `tiles` whole tiles) as its sharded buffer",
    "// holds them: each of its shards_down x shards_across shards widened by halo_rows tile rows and",
    "// halo_cols tile columns of its neighbours on every side (zeros past the tensor's edge), the widened",
    "// shards side by side.",
    "template <typename T>",
    "std::vector<T> with_halos(const std::vector<T>& tiles, uint32_t tile_rows, uint32_t tile_cols, "
    "uint32_t shards_down,",
    "                          uint32_t shards_across, uint32_t halo_rows, uint32_t halo_cols) {",
    "const uint32_t shard_rows = tile_rows / shards_down + 2 * halo_rows;",
    "const uint32_t shard_cols = tile_cols / shards_across + 2 * halo_cols;",
    "const size_t tile = tiles.size() / (static_cast<size_t>(tile_rows) * tile_cols);",
    "std::vector<T> stored(static_cast<size_t>(shards_down) * shard_rows * shards_across * shard_cols * "
    "tile, T{0});",
    "for (uint32_t r = 0; r < shards_down * shard_rows; ++r) {",
    "// the tensor's tile row held at buffer row r (out of range past the tensor's edge)",
    "const int64_t row = int64_t{r / shard_rows} * (shard_rows - 2 * halo_rows) + r % shard_rows - "
    "halo_rows;",
    "for (uint32_t c = 0; c < shards_across * shard_cols; ++c) {",
    "const int64_t col = int64_t{c / shard_cols} * (shard_cols - 2 * halo_cols) + c % shard_cols - "
    "halo_cols;",
    "if (row >= 0 && row < tile_rows && col >= 0 && col < tile_cols) {",
    "std::memcpy(&stored[(static_cast<size_t>(r) * shards_across * shard_cols + c) * tile],",
    "            &tiles[static_cast<size_t>(row * tile_cols + col) * tile], tile * sizeof(T));",
    "}",
    "}",
    "}",
    "return stored;",
    "}",
    "",
    "// The inverse for an output: each shard's own tiles out of its widened shard, the tensor's tiles.",
    "template <typename T>",
    "std::vector<T> without_halos(const std::vector<T>& stored, uint32_t tile_rows, uint32_t tile_cols, "
    "uint32_t shards_down,",
    "                             uint32_t shards_across, uint32_t halo_rows, uint32_t halo_cols) {",
    "const uint32_t shard_rows = tile_rows / shards_down, shard_cols = tile_cols / shards_across;",
    "const size_t stored_cols = tile_cols + size_t{2} * halo_cols * shards_across;",
    "const size_t tile = stored.size() / ((tile_rows + size_t{2} * halo_rows * shards_down) * stored_cols);",
    "std::vector<T> tiles(static_cast<size_t>(tile_rows) * tile_cols * tile);",
    "for (uint32_t row = 0; row < tile_rows; ++row) {",
    "const size_t r = size_t{row / shard_rows} * (shard_rows + 2 * halo_rows) + halo_rows + "
    "row % shard_rows;",
    "for (uint32_t col = 0; col < tile_cols; ++col) {",
    "const size_t c = size_t{col / shard_cols} * (shard_cols + 2 * halo_cols) + halo_cols + "
    "col % shard_cols;",
    "const size_t to = (static_cast<size_t>(row) * tile_cols + col) * tile;",
    "std::memcpy(&tiles[to], &stored[(r * stored_cols + c) * tile], tile * sizeof(T));",
    "}",
    "}",
    "return tiles;",
    "}",
    "",
]

# Between the tensor's declared dimension order and the order it is stored in (emitted when some tensor
# is stored in another order, plan ``dim_order``).
_ORDER_HELPERS = [
    "// Offset in a row-major tensor of dimensions `shape` of each element of the same tensor stored with",
    "// its dimensions in `order` (stored dimension k is declared dimension order[k]), in stored order.",
    "std::vector<size_t> stored_offsets(const std::vector<size_t>& shape, "
    "const std::vector<size_t>& order) {",
    "std::vector<size_t> stride(shape.size(), 1);",
    "for (size_t d = shape.size() - 1; d > 0; --d) {",
    "stride[d - 1] = stride[d] * shape[d];",
    "}",
    "std::vector<size_t> offsets(stride[0] * shape[0]);",
    "std::vector<size_t> index(order.size(), 0);",
    "for (size_t& offset : offsets) {",
    "offset = 0;",
    "for (size_t k = 0; k < order.size(); ++k) {",
    "offset += index[k] * stride[order[k]];",
    "}",
    "for (size_t k = order.size(); k-- > 0;) {",
    "if (++index[k] < shape[order[k]]) {",
    "break;",
    "}",
    "index[k] = 0;",
    "}",
    "}",
    "return offsets;",
    "}",
    "",
    "// The tensor in stored order (`offsets` from stored_offsets).",
    "template <typename T>",
    "std::vector<T> to_stored_order(const T* tensor, const std::vector<size_t>& offsets) {",
    "std::vector<T> stored(offsets.size());",
    "for (size_t i = 0; i < offsets.size(); ++i) {",
    "stored[i] = tensor[offsets[i]];",
    "}",
    "return stored;",
    "}",
    "",
    "// The inverse: the stored elements back into the tensor in its declared order.",
    "template <typename T>",
    "void from_stored_order(const std::vector<T>& stored, T* tensor, const std::vector<size_t>& offsets) {",
    "for (size_t i = 0; i < offsets.size(); ++i) {",
    "tensor[offsets[i]] = stored[i];",
    "}",
    "}",
    "",
]


def _offsets(t: dict, sizes: HostSizes) -> str:
    """The declaration of the tensor's stored_offsets table (see ``_ORDER_HELPERS``)."""
    n = host_name(t["name"])
    shape = ", ".join(
        sizes.size(f"{n}_dim{d}", extent, f"dimension {d} of {t['name']}")
        for d, extent in enumerate(t["shape"])
    )
    order = ", ".join(str(v) for v in t["dim_order"])
    return f"const std::vector<size_t> {n}_offsets = stored_offsets({{{shape}}}, {{{order}}});"


def _core_work_struct(plan: dict) -> list[str]:
    rect = plan["work_encoding"] == "rect"
    what = (
        "count blocks of the rectangle from block row row0 and column col0, cols columns wide, row by row"
        if rect
        else f"count blocks from start, in {plan['work_encoding'][len('range_') :]} order"
    )
    if plan["work_encoding"] == "range_balanced":
        axis = plan["work_partition"]["balanced_axis"]
        what += f" (row-major, {axis} walked from both ends: 0, n-1, 1, n-2, ...)"
    if plan["work_encoding"] == "range_z_order":
        what = "count positions from start on the Z curve over the block grid (kernels skip those outside)"
    return wrap_comment(f'Output blocks of one core (tt.plan.json "core_work"): {what}.') + [
        "struct CoreWork {",
        *(f"uint32_t {field};" for field in core_fields(plan)),
        "};",
    ]


def _core_work_table(plan: dict, first: int, words: str = "sizes") -> list[str]:
    """The work table read from ``words`` after the ``first`` named sizes."""
    fields = core_fields(plan)
    return [
        *wrap_comment(
            f"The work table follows the named sizes: the number of cores, then {', '.join(fields)} of each."
        ),
        f"const uint32_t num_cores = {words}[{first}];",
        "std::vector<CoreWork> core_work;",
        "for (uint32_t i = 0; i < num_cores; ++i) {",
        f"const uint32_t* row = {words} + {first + 1} + i * {len(fields)};",
        "core_work.push_back({" + ", ".join(f"row[{k}]" for k in range(len(fields))) + "});",
        "}",
    ]


def _multicast_helpers() -> list[str]:
    """The per-core arguments of one multicast direction (multicast.FIELDS, in slot order)."""
    return wrap_comment(
        "What one core needs for one direction of multicast: whether it sends, the sender's NOC coordinates, "
        "and the rectangle of its row or column, start and end in the order the reader's NOC travels (NOC 1 "
        "runs the other way, so its rectangle starts at the far end); the sender lies inside the rectangle "
        "and a multicast skips its source."
    ) + [
        "struct Multicast {",
        *(f"uint32_t {field};" for field in multicast.FIELDS),
        "};",
        "",
        *packed_call(
            "Multicast multicast_args",
            [
                "distributed::MeshDevice& device",
                "CoreCoord core",
                "CoreCoord sender",
                "CoreCoord first",
                "CoreCoord last",
                "uint32_t receivers",
                "bool noc1",
                "uint32_t ready_semaphore",
                "uint32_t valid_semaphore",
            ],
            ") {",
        ),
        "const CoreCoord sender_noc = device.worker_core_from_logical_core(sender);",
        "CoreCoord start = device.worker_core_from_logical_core(first);",
        "CoreCoord end = device.worker_core_from_logical_core(last);",
        "if (noc1) {",
        "std::swap(start, end);",
        "}",
        "const uint32_t is_sender = core == sender ? 1 : 0;",
        "return {",
        "is_sender,",
        *(f"static_cast<uint32_t>({c}.{xy})," for c in ("sender_noc", "start", "end") for xy in "xy"),
        "receivers,",
        "ready_semaphore,",
        "valid_semaphore,",
        "};",
        "}",
        "",
    ]


def _multicast_setup(reader: dict) -> list[str]:
    """The semaphores of each multicast direction the reader uses (created on every core)."""
    lines = [
        line.removeprefix(INDENT)
        for line in wrap_comment(
            "Multicast: the mcast_cores_x by mcast_cores_y cores step through their blocks in lockstep "
            '(tt.plan.json "lockstep_grid"). Receivers count themselves ready on the sender\'s ready '
            "semaphore; the sender flags the data valid on their valid semaphore.",
            INDENT,
        )
    ]
    for d in reader["multicast"]:
        lines += [
            f"const uint32_t {d}_{w}_semaphore = CreateSemaphore(program, cores, 0);"
            for w in ("ready", "valid")
        ]
    return lines + [""]


def _multicast_per_core(plan: dict, reader: dict, sizes: HostSizes) -> list[str]:
    """The Multicast arguments of this core (``w``), for each direction the reader uses."""
    if not reader.get("multicast"):
        return []
    grid = plan["lockstep_grid"]
    noc1 = "true" if reader["noc"] in ("RISCV_1_default", "NOC_1") else "false"
    cx = sizes.size("mcast_cores_x", grid["cores_x"], "columns of cores that step in lockstep")
    cy = sizes.size("mcast_cores_y", grid["cores_y"], "rows of cores that step in lockstep")
    # Row y's sender sits on the diagonal and column x's one row below it, so no core sends both ways.
    shapes = {
        "row": (f"{{w.y % {cx}, w.y}}", "{0, w.y}", f"{{{cx} - 1, w.y}}", f"{cx} - 1"),
        "col": (f"{{w.x, (w.x + 1) % {cy}}}", "{w.x, 0}", f"{{w.x, {cy} - 1}}", f"{cy} - 1"),
    }
    lines = []
    for d in reader["multicast"]:
        sender, first, last, receivers = shapes[d]
        args = ["*mesh_device", "core", sender, first, last, receivers, noc1]
        args += [f"{d}_ready_semaphore", f"{d}_valid_semaphore"]
        lines += assigned_call(f"const Multicast {d}_mcast", "multicast_args", args, PER_CORE_INDENT)
    return lines


# The per-core loop's body (runtime arguments) sits in the run function's loop: two levels deep.
PER_CORE_INDENT = INDENT * 2

WORK_FIELDS = {
    "work_start": "w.start",
    "work_count": "w.count",
    "work_row0": "w.row0",
    "work_col0": "w.col0",
    "work_cols": "w.cols",
}


def _size_names(kernels: dict) -> dict[tuple[str, str], str]:
    """(kernel role, argument name) → the host constant holding that size argument; kernels that give one
    name one value share its constant, else each kernel gets its own (``reader_k_count``)."""
    values: dict[str, set[int]] = {}
    for k in kernels.values():
        for a in k["runtime_args"]:
            if a["kind"] == "shape":
                values.setdefault(a["name"], set()).add(a["value"])
    return {
        (role, a["name"]): a["name"] if len(values[a["name"]]) == 1 else f"{role}_{a['name']}"
        for role, k in kernels.items()
        for a in k["runtime_args"]
        if a["kind"] == "shape"
    }


def _register_kernel_sizes(kernels: dict, sizes: HostSizes) -> None:
    """The kernels' size arguments, host sizes under the names ``_size_names`` gives them."""
    names = _size_names(kernels)
    for role, k in kernels.items():
        for a in k["runtime_args"]:
            if a["kind"] == "shape":
                sizes.size(names[(role, a["name"])], a["value"], a["meaning"])


def _runtime_args(kernel: dict, tensors: dict, size_names: dict) -> list[str]:
    """The kernel's runtime arguments on core ``w``: host values, each noted with the kernel's name for it
    when they do not fit on one line."""
    role = kernel["role"]
    values = []
    for a in kernel["runtime_args"]:
        if a["kind"] == "shape":
            values.append(size_names[(role, a["name"])])
        elif a["kind"] == "addr":
            values.append(f"{host_name(a['tensor'])}_addr")
        elif a["kind"] == "multicast":
            direction, field = a["name"].split("_", 1)
            values.append(f"{direction}_mcast.{field}")
        elif a["kind"] == "halo_window":
            values.append(f"w.{window_field(a['tensor'], a['name'].rsplit('_', 1)[1])}")
        else:
            values.append(WORK_FIELDS[a["kind"]])
    named = list(zip(values, (a["name"] for a in kernel["runtime_args"]), strict=True))
    return [
        *annotated_list(f"std::vector<uint32_t> {role}_args", named, ";", PER_CORE_INDENT),
        f"SetRuntimeArgs(program, {role}_kernel, core, {role}_args);",
    ]


def render_host(plan: dict) -> tuple[str, list[dict]]:
    """(main.cpp, its named sizes in the order it reads them: host_sizes.py's "host_sizes")."""
    program, tensors = plan["program"], plan["tensors"]
    source = plan["source"] or "a TileLang-TT program"
    target = plan["target"]
    by_name = {t["name"]: t for t in tensors}
    kernels = {k["role"]: k for k in plan["kernels"]}
    sizes = HostSizes()
    body = _run_body(plan, kernels, by_name, sizes)
    L = [
        f"// {program}: host program generated by TileLang-TT from {source}.",
        f"// Target: {target['name']} ({target['arch']}); output blocks of {plan['grid']['block_shape'][0]}x"
        f"{plan['grid']['block_shape'][1]}, spread over the cores by the work table.",
        *_file_head(tensors, 'tt.plan.json "host_sizes" and "core_work"'),
        *_core_work_struct(plan),
        "",
        *_helpers([plan], tensors),
    ]
    fields = len(core_fields(plan))
    L += wrap_comment(
        f"Throws unless `sizes` holds a problem of {program}: the {sizes.count} named sizes, the work "
        f"table's core count, and {fields} sizes per core."
    )
    L += [
        "void check_sizes(const uint32_t* sizes, int num_sizes) {",
        f"if (num_sizes < {sizes.count + 1} || "
        f"static_cast<uint32_t>(num_sizes) != {sizes.count + 1} + sizes[{sizes.count}] * {fields}) {{",
        f'const std::string expected = "{sizes.count} sizes, a core count and {fields} per core";',
        f'throw std::invalid_argument("{program} takes " + expected + ", got " + std::to_string(num_sizes));',
        "}",
        "}",
        "",
        *_run_function(
            program,
            tensors,
            sizes,
            [
                *wrap_comment("This problem's sizes (host_sizes.py), in the order of `sizes`."),
                *_size_declarations(sizes, "\n".join(body)),
                *_core_work_table(plan, sizes.count),
            ],
            body,
        ),
    ]
    return "\n".join(_indented(L)), sizes.entries


def _run_function(name: str, tensors: list[dict], sizes: HostSizes, preamble: list[str], body: list[str]):
    """run_<name> (``preamble``: its sizes, then ``body``), the end of the file's namespace, and the entry
    points that call it."""
    return [
        f"void run_{host_name(name)}(const std::string& kernel_dir, void* const* tensors, "
        "const uint32_t* sizes) {",
        *preamble,
        "",
        *body,
        "}",
        "",
        "}  // namespace",
        "",
        *_entry_points(name, tensors, sizes),
    ]


def _file_head(tensors: list[dict], sizes_come_from: str) -> list[str]:
    """The tensor list, the calling contract, the includes and the opening of the file's namespace."""
    L = ["//", "// Tensors (row-major on the host, tilized in device memory):"]
    for index, t in enumerate(tensors):
        padded = ", zero-padded to whole tiles" if _is_padded(t) else ""
        stored = f", stored in dimension order {t['dim_order']}" if _is_permuted(t) else ""
        L.append(
            f"//   {index}: {t['name']}, {len(t['shape'])}-D {t['dtype']} "
            f"({t['access']}, {t['memory']}, {t['format']}{stored}{padded})"
        )
    return L + [
        "//",
        *wrap_comment(
            "The program is the same for every shape: the sizes of a problem come in `sizes`, the named "
            f"sizes below and then the per-core work table ({sizes_come_from}). "
            "tilelang_tt_run(kernel_dir, tensors, n, sizes, num_sizes) runs it on device 0 (the TileLang-TT "
            "device contract); main() runs it standalone: main KERNEL_DIR SIZES "
            + " ".join(f"{t['name']}.bin" for t in tensors)
            + ", the sizes comma-separated."
        ),
        "",
        "#include <cmath>",
        "#include <cstdint>",
        "#include <cstdio>",
        "#include <cstring>",
        "#include <fstream>",
        "#include <limits>",
        "#include <memory>",
        "#include <span>",
        "#include <sstream>",
        "#include <stdexcept>",
        "#include <string>",
        "#include <utility>",
        "#include <vector>",
        "",
        "#include <tt-metalium/distributed.hpp>",
        "#include <tt-metalium/host_api.hpp>",
        "#include <tt-metalium/tensor_accessor_args.hpp>",
        "#include <tt-metalium/tilize_utils.hpp>",
        *sorted(
            {
                f"#include <tt-metalium/{BLOCK_FLOAT_CALLS[t['dtype']][0]}>"
                for t in tensors
                if t["dtype"] in BLOCK_FLOAT_CALLS
            }
        ),
        "",
        "using namespace tt;",
        "using namespace tt::tt_metal;",
        "",
        "namespace {",
        "",
    ]


def _helpers(plans: list[dict], tensors: list[dict]) -> list[str]:
    """The helper functions the programs' transfers and arguments call."""
    L = []
    if any(k["role"] == "reader" and k.get("multicast") for p in plans for k in p["kernels"]):
        L += _multicast_helpers()
    if any(_is_padded(t) for t in tensors):
        L += _PADDING_HELPERS
    if any(_is_permuted(t) for t in tensors):
        L += _ORDER_HELPERS
    if any(t.get("halo") for t in tensors):
        L += _HALO_HELPERS
    if any(t["page_layout"] == "table" and t["dtype"] in _FLOAT_TABLE_VALUE for t in tensors):
        L += _FLOAT_TABLE_HELPERS
    return L


def _entry_points(program: str, tensors: list[dict], sizes: HostSizes) -> list[str]:
    """tilelang_tt_run (the device contract) and main (standalone, tensors from files) around run_<program>;
    the tensors' element counts are named sizes of ``sizes``."""
    n_t = len(tensors)
    files = " ".join(t["name"] + ".bin" for t in tensors)
    element_bytes = {t["name"]: ELEMENT_BYTES.get(ELEMENT_TYPE[t["dtype"]], 4) for t in tensors}
    index = {e["name"]: k for k, e in enumerate(sizes.entries)}
    bytes_of = [
        (
            f"size_t{{sizes[{index[host_name(t['name']) + '_elements']}]}} * {element_bytes[t['name']]}",
            t["name"],
        )
        for t in tensors
    ]
    L = [
        'extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors, '
        "const uint32_t* sizes,",
        "                                int num_sizes) {",
        f"if (num_tensors != {n_t}) {{",
        f'throw std::invalid_argument("{program} takes {n_t} tensors, got " + std::to_string(num_tensors));',
        "}",
        "check_sizes(sizes, num_sizes);",
        f"run_{host_name(program)}(kernel_dir, tensors, sizes);",
        "}",
        "",
        "// Standalone: main KERNEL_DIR SIZES FILE... with the sizes comma-separated and one raw row-major",
        "// file per tensor; outputs are overwritten.",
        "int main(int argc, char** argv) {",
        f"if (argc != {n_t + 3}) {{",
        f'std::fprintf(stderr, "usage: %s KERNEL_DIR SIZES {files}\\n", argv[0]);',
        "return 2;",
        "}",
        "std::vector<uint32_t> sizes;",
        "try {",
        "std::stringstream list(argv[2]);",
        "for (std::string word; std::getline(list, word, ',');) {",
        "sizes.push_back(static_cast<uint32_t>(std::stoul(word)));",
        "}",
        "check_sizes(sizes.data(), static_cast<int>(sizes.size()));",
        "} catch (const std::exception& error) {",
        'std::fprintf(stderr, "%s\\n", error.what());',
        "return 2;",
        "}",
        *annotated_list("const std::vector<size_t> bytes = ", bytes_of, ";", INDENT),
        "std::vector<std::vector<char>> data;",
        "std::vector<void*> pointers;",
        f"for (int i = 0; i < {n_t}; ++i) {{",
        "std::ifstream in(argv[i + 3], std::ios::binary);",
        "std::vector<char> buffer(bytes[i]);",
        "if (!in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()))) {",
        'std::fprintf(stderr, "cannot read %zu bytes from %s\\n", bytes[i], argv[i + 3]);',
        "return 1;",
        "}",
        "data.push_back(std::move(buffer));",
        "}",
        "for (auto& buffer : data) {",
        "pointers.push_back(buffer.data());",
        "}",
        f"tilelang_tt_run(argv[1], pointers.data(), {n_t}, sizes.data(), static_cast<int>(sizes.size()));",
    ]
    for t in [t for t in tensors if t["access"] in ("write", "read_write")]:
        i = tensors.index(t)
        L += [
            f"std::ofstream(argv[{i + 3}], std::ios::binary).write(data[{i}].data(), "
            f"static_cast<std::streamsize>(data[{i}].size()));"
        ]
    L += ["return 0;", "}", ""]
    return L


def _run_body(plan: dict, kernels: dict, by_name: dict, sizes: HostSizes) -> list[str]:
    """The body of run_<program> after its sizes: device, buffers, CBs, kernels, arguments, transfers."""
    tensors = plan["tensors"]
    index = {t["name"]: t["param_index"] for t in tensors}
    inputs = [t for t in tensors if t["access"] in ("read", "read_write")]
    L = _open_device(tensors, plan["target"]["grid"], sizes)
    L += ["", *_program_setup(plan, kernels, by_name, sizes, "kernel_dir")]
    L += ["", *_input_writes(inputs, index, sizes)]
    L += ["", *_enqueue(), ""]
    outputs = [t for t in tensors if t["access"] in ("write", "read_write")]
    L += _output_reads(outputs, index, sizes, {t["name"] for t in inputs})
    return L + ["distributed::Finish(cq);", "mesh_device->close();"]


def _open_device(tensors: list[dict], grid, sizes: HostSizes) -> list[str]:
    """Device 0, its command queue, and one buffer per tensor (its element count the first size of each)."""
    for t in tensors:  # every tensor's element count comes first: main() reads the tensor files by it
        sizes.size(f"{host_name(t['name'])}_elements", _elements(t["shape"]), f"elements of {t['name']}")
    L = [
        "auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);",
        "distributed::MeshCommandQueue& cq = mesh_device->mesh_command_queue();",
        "distributed::MeshCoordinateRange device_range(mesh_device->shape());",
        "",
        "// One buffer per tensor, pages interleaved over the banks or sharded over cores' L1; a page is one",
        "// tile (a row of a gathered tensor).",
    ]
    for t in tensors:
        n = host_name(t["name"])
        page = (
            sizes.size(f"{n}_page_size", t["page_size"], f"bytes of {_PAGE_OF[t['page_layout']]} {t['name']}")
            if t["page_layout"] in _PAGE_OF
            else str(t["page_size"])
        )
        pages = sizes.size(f"{n}_pages", t["pages"], f"pages of {t['name']}")
        sharded = ""
        if t.get("shard_grid"):
            L += _shard_spec(t, n, grid)
            sharded = f", .sharding_args = BufferShardingArgs({n}_shards, TensorMemoryLayout::" + (
                f"{sharding.buffer_layout(t['shard_grid'])})"
            )
        L += [
            f"distributed::DeviceLocalBufferConfig {n}_config{{.page_size = {page}, "
            f".buffer_type = {BUFFER_TYPE[t['memory']]}{sharded}}};",
            f"distributed::ReplicatedBufferConfig {n}_size{{.size = uint64_t{{{page}}} * {pages}}};",
            f"auto {n}_buffer = distributed::MeshBuffer::create({n}_size, {n}_config, mesh_device.get());",
            f"const uint32_t {n}_addr = static_cast<uint32_t>({n}_buffer->address());",
        ]
    return L


def _program_setup(plan: dict, kernels: dict, by_name: dict, sizes: HostSizes, kernel_dir: str) -> list[str]:
    """The program of ``plan`` on the cores of its work table: CBs, kernels (from ``kernel_dir``) and each
    core's runtime arguments."""
    L = [
        "Program program = CreateProgram();",
        "",
        "// Cores that compute output blocks.",
        "std::vector<CoreRange> core_ranges;",
        "for (const CoreWork& w : core_work) {",
        "core_ranges.push_back(CoreRange({w.x, w.y}, {w.x, w.y}));",
        "}",
        "const CoreRangeSet cores(core_ranges);",
        "",
        "// Circular buffers (same layout on every core).",
    ]
    for cb in plan["circular_buffers"]:
        c = f"c_{cb['cb']}"
        L += [
            f"// {c}: {cb['buffer']}, {cb['role']}, {cb['depth']} pages of {cb['page_size']} bytes",
            f"CircularBufferConfig {c}_config({cb['total_bytes']}, "
            f"{{{{CBIndex::{c}, DataFormat::{cb['format']}}}}});",
            f"{c}_config.set_page_size(CBIndex::{c}, {cb['page_size']});",
            f"CreateCircularBuffer(program, cores, {c}_config);",
        ]
    L += [""]
    if kernels["reader"].get("multicast"):
        L += _multicast_setup(kernels["reader"])
    L += ["// Kernels: the reader and writer move tiles between DRAM and the CBs, compute multiplies them."]
    for role in ("reader", "writer"):
        k = kernels[role]
        L.append(f"std::vector<uint32_t> {role}_compile_args;")
        for a in k["compile_time_args"]:
            L.append(f"TensorAccessorArgs(*{host_name(a['tensor'])}_buffer).append_to({role}_compile_args);")
        L += [
            f"DataMovementConfig {role}_config;",
            f"{role}_config.processor = DataMovementProcessor::{k['processor']};",
            f"{role}_config.noc = NOC::{k['noc']};",
            f"{role}_config.compile_args = {role}_compile_args;",
            f'KernelHandle {role}_kernel = CreateKernel(program, {kernel_dir} + "/{k["file"]}", cores, '
            f"{role}_config);",
        ]
    cfg = kernels["compute"]["compute_config"]
    _register_kernel_sizes(kernels, sizes)
    L += [
        "ComputeConfig compute_config;",
        f"compute_config.math_fidelity = MathFidelity::{cfg['math_fidelity']};",
        *(
            f"compute_config.{flag} = {'true' if cfg[flag] else 'false'};"
            for flag in ("fp32_dest_acc_en", "dst_full_sync_en", "math_approx_mode")
        ),
        f"KernelHandle compute_kernel = CreateKernel(program, {kernel_dir} + "
        f'"/{kernels["compute"]["file"]}", cores, compute_config);',
        "",
        '// Runtime arguments, in the order of each kernel\'s argument schema (tt.plan.json "runtime_args").',
        "for (const CoreWork& w : core_work) {",
        "const CoreCoord core{w.x, w.y};",
        *_multicast_per_core(plan, kernels["reader"], sizes),
    ]
    for role in ("reader", "compute", "writer"):
        L += _runtime_args(kernels[role], by_name, _size_names(kernels))
    return L + ["}"]


def _enqueue() -> list[str]:
    return [
        "distributed::MeshWorkload workload;",
        "workload.add_program(device_range, std::move(program));",
        "distributed::EnqueueMeshWorkload(cq, workload, false);",
    ]


def _input_writes(inputs: list[dict], index: dict, sizes: HostSizes) -> list[str]:
    """The host data of ``inputs`` (tensor ``index[name]`` of ``tensors``) written to their buffers."""
    L = ["// Inputs: row-major host data → tiles (four 16x16 faces each) → device."]
    if any(t["page_layout"] != "row_major" and not _is_padded(t) for t in inputs):
        L += [
            "constexpr TensorLayoutType row_major = TensorLayoutType::LIN_ROW_MAJOR;",
            "constexpr TensorLayoutType tiled = TensorLayoutType::TILED_NFACES;",
        ]
    for t in inputs:
        n, ty = host_name(t["name"]), ELEMENT_TYPE[t["dtype"]]
        elements = f"{n}_elements"
        host = f"static_cast<const {ty}*>(tensors[{index[t['name']]}])"
        if _is_permuted(t):
            L += [
                _offsets(t, sizes),
                f"const std::vector<{ty}> {n}_stored = to_stored_order({host}, {n}_offsets);",
            ]
            host = f"{n}_stored.data()"
        L.append(f"const auto* {n}_host = {host};")
        if t["page_layout"] == "table":  # every value a 32-bit word: integers widened, floats as float32
            if t["dtype"] in _FLOAT_TABLE_VALUE:
                L += [
                    f"std::vector<float> {n}_words({elements});",
                    f"for (uint32_t i = 0; i < {elements}; ++i) {{",
                    f"{n}_words[i] = {_FLOAT_TABLE_VALUE[t['dtype']]}({n}_host[i]);",
                    "}",
                ]
            else:
                word = "float" if t["dtype"] == "float32" else "uint32_t"
                L.append(f"const std::vector<{word}> {n}_words({n}_host, {n}_host + {elements});")
            L.append(f"distributed::EnqueueWriteMeshBuffer(cq, {n}_buffer, {n}_words, false);")
            continue
        if t["page_layout"] == "row_major":  # pages are the rows as they are
            L += [
                f"const std::vector<{ty}> {n}_rows({n}_host, {n}_host + {elements});",
                f"distributed::EnqueueWriteMeshBuffer(cq, {n}_buffer, {n}_rows, false);",
            ]
            continue
        rows, cols = _view_sizes(t, sizes)
        if _is_padded(t):
            L += [
                *assigned_call(
                    f"const std::vector<{ty}> {n}_view",
                    "pad_to_tile_view",
                    [f"{n}_host", *_slice_sizes(t, sizes)],
                    INDENT,
                ),
                f"const std::vector<{ty}> {n}_tiles = tilize_nfaces({n}_view, {rows}, {cols});",
            ]
        else:  # tilized straight from the caller's data: no row-major copy
            L += [
                f"const std::span<const {ty}> {n}_span({n}_host, {elements});",
                f"const PhysicalSize {n}_shape{{{rows}, {cols}}};",
                f"const std::vector<{ty}> {n}_tiles = convert_layout({n}_span, {n}_shape, row_major, tiled);",
            ]
        tiles = f"{n}_tiles"
        if t.get("halo"):
            tiles = f"{n}_haloed_tiles"
            counts = [*t["tiles"], *t["shard_grid"], *t["halo"]]
            L += assigned_call(
                f"const std::vector<{ty}> {tiles}", "with_halos", [f"{n}_tiles", *map(str, counts)], INDENT
            )
        if t["dtype"] in BLOCK_FLOAT_CALLS:
            pack = BLOCK_FLOAT_CALLS[t["dtype"]][1]
            L += [
                f"const std::vector<uint32_t> {n}_words = {pack}({tiles}, /*row_major_input=*/false, "
                "/*is_exp_a=*/false);",
                f"distributed::EnqueueWriteMeshBuffer(cq, {n}_buffer, {n}_words, false);",
            ]
            continue
        L.append(f"distributed::EnqueueWriteMeshBuffer(cq, {n}_buffer, {tiles}, false);")
    return L


def _output_reads(outputs: list[dict], index: dict, sizes: HostSizes, written: set[str]) -> list[str]:
    """The buffers of ``outputs`` read back into their host tensors (``tensors[index[name]]``); the tensors
    ``written`` as inputs have their dimension-order tables already."""
    L = ["// Outputs: device tiles → row-major host data, written in place."]
    for t in outputs:
        n, ty = host_name(t["name"]), ELEMENT_TYPE[t["dtype"]]
        host = f"static_cast<{ty}*>(tensors[{index[t['name']]}])"
        if t["page_layout"] == "row_major":  # pages are the rows as they are
            L += [
                f"std::vector<{ty}> {n}_rows;",
                f"distributed::EnqueueReadMeshBuffer(cq, {n}_rows, {n}_buffer, true);",
                f"std::memcpy({host}, {n}_rows.data(), {n}_rows.size() * sizeof({ty}));",
            ]
            continue
        rows, cols = _view_sizes(t, sizes)
        if t["dtype"] in BLOCK_FLOAT_CALLS:
            unpack = BLOCK_FLOAT_CALLS[t["dtype"]][2]
            L += [
                f"std::vector<uint32_t> {n}_words_out;",
                f"distributed::EnqueueReadMeshBuffer(cq, {n}_words_out, {n}_buffer, true);",
                f"const std::vector<float> {n}_tiles_out = {unpack}({n}_words_out, "
                "/*row_major_output=*/false, /*is_exp_a=*/false);",
            ]
        else:
            L += [
                f"std::vector<{ty}> {n}_tiles_out;",
                f"distributed::EnqueueReadMeshBuffer(cq, {n}_tiles_out, {n}_buffer, true);",
            ]
        tiles = f"{n}_tiles_out"
        if t.get("halo"):
            tiles = f"{n}_shard_tiles"
            counts = [*t["tiles"], *t["shard_grid"], *t["halo"]]
            element = "float" if t["dtype"] in BLOCK_FLOAT_CALLS else ty
            L += assigned_call(
                f"const std::vector<{element}> {tiles}",
                "without_halos",
                [f"{n}_tiles_out", *map(str, counts)],
                INDENT,
            )
        L.append(f"const std::vector<{ty}> {n}_rows = untilize_nfaces({tiles}, {rows}, {cols});")
        if _is_permuted(t):
            L += ([] if t["name"] in written else [_offsets(t, sizes)]) + [
                f"std::vector<{ty}> {n}_stored_out({n}_offsets.size());"
            ]
            destination = f"{n}_stored_out.data()"
        else:
            destination = host
        if _is_padded(t):
            L += packed_call(
                "crop_tile_view", [f"{n}_rows", destination, *_slice_sizes(t, sizes)], ");", INDENT
            )
        else:
            L.append(f"std::memcpy({destination}, {n}_rows.data(), {n}_rows.size() * sizeof({ty}));")
        if _is_permuted(t):
            L.append(f"from_stored_order({n}_stored_out, {host}, {n}_offsets);")
    return L


def _shard_spec(t: dict, n: str, grid) -> list[str]:
    """The ShardSpecBuffer ``<n>_shards`` of sharded tensor ``t`` (sharding.py: which cores hold which shard;
    a shard with halos is widened by them). Its numbers are part of the program text: a sharded layout is
    compiled for its shape."""
    rows, cols = t["shard_grid"]
    halo = t.get("halo") or [0, 0]
    stored_rows, stored_cols = sharding.stored_grid(t["tiles"], t["shard_grid"], halo)
    shard_rows, shard_cols = stored_rows // rows, stored_cols // cols
    ranges = ", ".join(
        f"CoreRange({{{x0}, {y0}}}, {{{x1}, {y1}}})"
        for x0, y0, x1, y1 in sharding.shard_core_ranges(t["shard_grid"], t["shard_order"], grid)
    )
    orientation = "COL_MAJOR" if t["shard_order"] == "col_major" else "ROW_MAJOR"
    with_halo = f" (with halos of {halo[0]} x {halo[1]} tiles)" if any(halo) else ""
    return [
        f"// {t['name']}: {rows} x {cols} shards of {shard_rows} x {shard_cols} tiles{with_halo}, one a "
        "core.",
        f"const ShardSpecBuffer {n}_shards(CoreRangeSet(std::vector<CoreRange>{{{ranges}}}),",
        f"{INDENT * 2}{{{shard_rows * TILE}, {shard_cols * TILE}}}, ShardOrientation::{orientation},",
        f"{INDENT * 2}{{{TILE}, {TILE}}}, {{{stored_rows}, {stored_cols}}});",
    ]


def _size_declarations(sizes: HostSizes, body: str, words: str = "sizes") -> list[str]:
    """A constant for each size ``body`` reads from ``words``, with what it is (comments aligned, as
    clang-format does)."""
    used = [(k, e) for k, e in enumerate(sizes.entries) if re.search(rf"\b{e['name']}\b", body)]
    code = [f"const uint32_t {e['name']} = {words}[{k}];" for k, e in used]
    width = max((len(c) for c in code), default=0)
    return [f"{c:{width}s}  // {e['meaning']}" for c, (_, e) in zip(code, used, strict=True)]


def _view_sizes(t: dict, sizes: HostSizes) -> tuple[str, str]:
    """The names of the rows and columns of the tensor's tile view."""
    n = host_name(t["name"])
    return (
        sizes.size(f"{n}_view_rows", t["view"][0], f"rows of {t['name']}'s tile view"),
        sizes.size(f"{n}_view_cols", t["view"][1], f"columns of {t['name']}'s tile view"),
    )


def _indented(lines: list[str]) -> list[str]:
    """Lines indented by their brace depth (a namespace's body is not indented, as in the style)."""
    out, depth = [], 0
    for line in lines:
        if line.startswith("}") and not line.startswith("}  // namespace"):
            depth -= 1
        out.append(INDENT * depth + line if line else "")
        if line.endswith("{") and not line.startswith("namespace"):
            depth += 1
    return out


# What a tensor's buffer is on the device: programs of one sequence share a buffer only if they agree on it.
DEVICE_FIELDS = (
    "dtype", "format", "page_layout", "pages", "page_size", "shape", "view", "tiles", "memory", "layout",
    "dim_order", "shard_grid", "shard_order", "halo",
)  # fmt: skip


def sequence_mismatch(plans: list[dict]) -> str | None:
    """Why the programs cannot share their tensors' buffers in one host program (a tensor two of them
    place differently: another page layout, dimension order or shard grid), or None."""
    first = {}
    for plan in plans:
        for t in plan["tensors"]:
            if t["access"] == "unused":
                continue
            seen = first.setdefault(t["name"], (plan["program"], t))
            differ = [f for f in DEVICE_FIELDS if seen[1].get(f) != t.get(f)]
            if differ:
                return (
                    f"{seen[0]} and {plan['program']} place {t['name']} differently ({differ[0]} "
                    f"{seen[1].get(differ[0])} and {t.get(differ[0])})"
                )
    return None


def render_sequence_host(name: str, source: str, tensors: list[dict], plans: list[dict]) -> tuple[str, dict]:
    """main.cpp running ``plans`` one after another on one device, their tensors in buffers that live for
    the whole call: what one program writes, the next reads on the device, never through the host.

    ``tensors`` are the call's tensors (the programs' tensors by name, their access over all programs;
    workspaces last, access "workspace"); ``sequence_mismatch(plans)`` must be None. Returns the text and
    its sizes: {"buffers": named sizes of the buffers and transfers, "programs": each program's named
    sizes}, read in that order, each program's followed by its work table (host_sizes.sequence_values)."""
    target = plans[0]["target"]
    index = {t["name"]: k for k, t in enumerate(tensors)}
    outer = HostSizes()
    body = _open_device(tensors, target["grid"], outer)
    inputs = [t for t in tensors if t["access"] in ("read", "read_write", "workspace")]
    body += ["", *_input_writes(inputs, index, outer), ""]
    outputs = [t for t in tensors if t["access"] in ("write", "read_write")]
    # the reads register their sizes now: the programs' sizes follow all of the buffers' ones
    reads = _output_reads(outputs, index, outer, {t["name"] for t in inputs})
    body += wrap_comment(
        "Each program reads its named sizes and work table from where the previous program's end; its "
        "kernels are in kernel_dir/<program>."
    )
    body += [f"const uint32_t* program_sizes = sizes + {outer.count};"]
    program_sizes = []
    for number, plan in enumerate(plans, 1):
        sizes = HostSizes()
        kernels = {k["role"]: k for k in plan["kernels"]}
        by_name = {t["name"]: t for t in plan["tensors"]}
        setup = _program_setup(plan, kernels, by_name, sizes, "program_dir")
        block = [
            f'const std::string program_dir = kernel_dir + "/{plan["program"]}";',
            *setup,
            *_enqueue(),
            f"program_sizes += {sizes.count + 1} + num_cores * {len(core_fields(plan))};",
        ]
        body += [
            "",
            f"// Program {number} of {len(plans)}: {plan['program']}.",
            "{",
            *_core_work_struct(plan),
            *_size_declarations(sizes, "\n".join(block), "program_sizes"),
            *_core_work_table(plan, sizes.count, "program_sizes"),
            *block,
            "}",
        ]
        program_sizes.append(sizes)
    body += ["", *reads, "distributed::Finish(cq);", "mesh_device->close();"]
    shapes = ", ".join(
        f"{{{s.count}, {len(core_fields(p))}}}" for s, p in zip(program_sizes, plans, strict=True)
    )
    L = [
        *wrap_comment(
            f"{name}: host program generated by TileLang-TT from {source}: its {len(plans)} programs, one "
            f"after another on one device. Target: {target['name']} ({target['arch']}). The tensors' buffers "
            "live for the whole call: a workspace never leaves the device."
        ),
        *_file_head(tensors, "the buffers' sizes, then each program's sizes and work table"),
        *_helpers(plans, tensors),
        *wrap_comment(
            f"Throws unless `sizes` holds a problem of {name}: {outer.count} named sizes, then for each "
            "program its named sizes, a core count and that many rows of its work table."
        ),
        "void check_sizes(const uint32_t* sizes, int num_sizes) {",
        "const size_t count = num_sizes < 0 ? 0 : static_cast<size_t>(num_sizes);",
        f"size_t at = {outer.count};",
        "bool complete = true;",
        "// (named sizes, words per core) of each program",
        f"for (const auto& [named, per_core] : std::vector<std::pair<size_t, size_t>>{{{shapes}}}) {{",
        "at += named;",
        "// no core count where this program's should be",
        "if (at >= count) {",
        "complete = false;",
        "break;",
        "}",
        "at += 1 + size_t{sizes[at]} * per_core;",
        "}",
        "if (!complete || at != count) {",
        f'throw std::invalid_argument("{name} takes sizes for {len(plans)} programs, got " + '
        "std::to_string(num_sizes));",
        "}",
        "}",
        "",
        *_run_function(
            name,
            tensors,
            outer,
            [
                *wrap_comment(
                    "The sizes of the buffers and transfers (host_sizes.py), in the order of `sizes`."
                ),
                *_size_declarations(outer, "\n".join(body)),
            ],
            body,
        ),
    ]
    sizes_of = {"buffers": outer.entries, "programs": [s.entries for s in program_sizes]}
    return "\n".join(_indented(L)), sizes_of
