#pragma once
// The one adapter over the parallel HDF5 C API (docs/architecture.md). Every call goes through
// check(), which turns a failure into pimdse::IoError naming the file and the object, with
// the innermost records of HDF5's error stack as the cause; every
// handle is owned by an RAII Handle. Only store includes this header.
//
// Tables are 1-D, extendible, chunked datasets of a compound type. A collective append
// gathers each rank's row count, extends the dataset once, and lets every rank write its
// own rows at its offset (rank order). A table can also be grown ahead (reserve) and written
// at given rows (write_at), which changes no metadata: the sweep store's batches.

#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace pimdse::store::h5 {

/// Owns one HDF5 identifier and closes it with the matching H5*close function.
class Handle {
public:
    using Closer = herr_t (*)(hid_t);
    Handle() = default;
    Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)), closer_(o.closer_) {}
    Handle& operator=(Handle&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = std::exchange(o.id_, H5I_INVALID_HID);
            closer_ = o.closer_;
        }
        return *this;
    }
    ~Handle() { reset(); }

    [[nodiscard]] hid_t id() const noexcept { return id_; }
    [[nodiscard]] bool valid() const noexcept { return id_ >= 0; }
    void reset() noexcept;
    /// Forgets the identifier without closing it (File::abandon).
    void release() noexcept { id_ = H5I_INVALID_HID; }

private:
    hid_t id_ = H5I_INVALID_HID;
    Closer closer_ = nullptr;
};

/// Starts the HDF5 library before MPI and without an exit handler; call it first in main().
/// HDF5 1.10 otherwise shuts itself down inside MPI_Finalize and at exit, closing any file
/// still open; a file whose own close failed (a disk that filled while the file was created)
/// is left half-destroyed by that failure, and the second close segfaults. Every file is
/// closed by its Handle before MPI_Finalize, so the library has nothing left to do at exit.
void start_library_before_mpi();

/// Throws IoError("<context>: <what> failed (HDF5: <cause>)") if `status` is negative, the
/// cause read from HDF5's error stack (which HDF5 does not print); returns `status` otherwise.
hid_t check(hid_t status, const std::string& context, const char* what);

/// Compound datatype built field by field; `offset` is offsetof(Row, field).
class CompoundType {
public:
    explicit CompoundType(std::size_t row_size);
    CompoundType& add(const char* name, std::size_t offset, hid_t native_type);
    /// A fixed-length, NUL-padded string field of `length` bytes (char[length] in the row).
    CompoundType& add_string(const char* name, std::size_t offset, std::size_t length);
    /// An HDF5 enum field: names[i] has value i, stored as `base` (a native integer type the
    /// row's field has: std::int32_t by default, H5T_NATIVE_INT8 for std::int8_t); and, when
    /// `minus_one` is not empty, the member `minus_one` with value -1.
    CompoundType& add_enum(const char* name, std::size_t offset, const std::vector<std::string>& names,
                           hid_t base = H5T_NATIVE_INT32, const std::string& minus_one = {});
    [[nodiscard]] hid_t id() const noexcept { return type_.id(); }

private:
    Handle type_;
    std::vector<Handle> members_;  // string/enum member types stay alive with the compound
};

/// An HDF5 file opened for MPI-IO on a communicator (all calls on it are collective).
class File {
public:
    enum class Mode { create_exclusive, create_truncate, read_write, read_only };
    File(const std::filesystem::path& path, Mode mode, MPI_Comm comm);

    [[nodiscard]] hid_t id() const noexcept { return file_.id(); }
    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    [[nodiscard]] MPI_Comm comm() const noexcept { return comm_; }
    /// Make everything written so far durable and consistent on disk (collective).
    void flush();
    /// After a failed write: the file is never closed (a close flushes HDF5's cached metadata,
    /// and HDF5 1.10 may fail again or crash inside it), as if the process had been killed;
    /// what is on disk still ends at the last commit. Objects of the file must be abandoned too.
    void abandon() noexcept { file_.release(); }
    /// Collective: flushes, then rank 0 renames the file to `path` (replacing what is there);
    /// the file stays open under its new name. Throws IoError on every rank if it fails.
    void rename(const std::filesystem::path& path);
    /// Not collective: asks the operating system to start writing this process's written data
    /// to disk now, without waiting (Linux sync_file_range), so that a later flush finds little
    /// left to write. A no-op where unsupported or when it fails.
    void start_writeback();

    /// Scalar attributes (collective: the same value on every rank). An existing attribute of
    /// the same type is overwritten in place, otherwise replaced.
    void set_attribute(const std::string& object, const std::string& key, const std::string& value);
    void set_attribute(const std::string& object, const std::string& key, std::int64_t value);
    void set_attribute(const std::string& object, const std::string& key, double value);
    [[nodiscard]] std::string string_attribute(const std::string& object, const std::string& key) const;
    [[nodiscard]] std::int64_t int_attribute(const std::string& object, const std::string& key) const;
    /// A 1-D integer array; an existing attribute of the same length is overwritten in place
    /// (one write, no delete-then-create window), which the sweep's commit record relies on.
    void set_attribute(const std::string& object, const std::string& key,
                       std::span<const std::int64_t> values);
    [[nodiscard]] std::vector<std::int64_t> int_array_attribute(const std::string& object,
                                                                const std::string& key) const;
    [[nodiscard]] bool has_attribute(const std::string& object, const std::string& key) const;

    /// Create the group `path` and any missing parents.
    void create_groups(const std::string& path);
    [[nodiscard]] bool exists(const std::string& path) const;

    /// Collective: a fixed-length string dataset of one element at `path` (parents created)
    /// holding `text`, which must be the same on every rank; rank 0 writes it. Chunked, so
    /// that its Fletcher32 checksum is checked whenever it is read.
    void write_text(const std::string& path, const std::string& text);
    [[nodiscard]] std::string read_text(const std::string& path) const;

    /// Collective: a fixed 1-D int64 dataset at `path` (one chunk, Fletcher32), created on
    /// first use and overwritten in place after (same length); rank 0's values are written.
    /// Raw data, not metadata (the chunk keeps its place), so the write reaches the file at
    /// once, without a flush.
    void write_int64s(const std::string& path, std::span<const std::int64_t> values);
    [[nodiscard]] std::vector<std::int64_t> read_int64s(const std::string& path) const;

private:
    /// A plain descriptor of the file for start_writeback, opened on first use.
    struct Descriptor {
        int fd = -1;
        Descriptor() = default;
        Descriptor(const Descriptor&) = delete;
        Descriptor& operator=(const Descriptor&) = delete;
        Descriptor(Descriptor&& o) noexcept : fd(std::exchange(o.fd, -1)) {}
        Descriptor& operator=(Descriptor&& o) noexcept;
        ~Descriptor();
    };
    Handle file_;
    std::string name_;
    MPI_Comm comm_;
    Descriptor writeback_;
};

/// A 1-D extendible table of compound rows.
/// Rows whose file layout is narrower than their struct in memory (a row struct with room
/// for more family columns than the file has): each field's bytes at its offset in memory
/// and in the file. A table with a packing writes and reads the file's type itself and
/// moves the bytes, since parallel HDF5 converts no type in a collective, filtered write.
struct RowPacking {
    hid_t stored = -1;  ///< the file's compound type (owned by the caller, outliving the table)
    std::size_t stored_size = 0;
    struct Move {
        std::size_t memory = 0;
        std::size_t stored = 0;
        std::size_t bytes = 0;
    };
    std::vector<Move> moves;
};

class Table {
public:
    /// Create `path` in `file` with an unlimited dimension and chunks of `chunk_rows` rows;
    /// `deflate` 1-9 compresses every chunk with HDF5's shuffle + deflate filters at that level
    /// (0: none). Filtered chunks are rewritten, moved and re-indexed whenever rows are added to
    /// them, so a filtered table changes the file's metadata on every write (compressed()).
    /// `packing`: the file's narrower layout of the rows of `type` (kept by the table); null:
    /// the file stores `type` itself.
    /// `fill`: when not empty, one row of `type` that HDF5 returns for rows never written
    /// (the dataset's fill value).
    static Table create(File& file, const std::string& path, const CompoundType& type, hsize_t chunk_rows,
                        int deflate = 0, const RowPacking* packing = nullptr,
                        std::span<const std::byte> fill = {});
    static Table open(File& file, const std::string& path, const CompoundType& type,
                      const RowPacking* packing = nullptr);

    [[nodiscard]] hsize_t rows() const;
    /// See File::abandon.
    void abandon() noexcept { dataset_.release(); }
    /// Bytes per row in memory (the compound type's size).
    [[nodiscard]] std::size_t row_size() const noexcept { return row_size_; }

    /// Collective: every rank contributes `bytes.size() / row_size` rows (possibly none);
    /// they land after the existing rows in rank order. Returns the first row index of this
    /// rank's block.
    hsize_t append(std::span<const std::byte> bytes);

    template <class Row>
    hsize_t append_rows(std::span<const Row> rows) {
        return append(std::as_bytes(rows));
    }

    /// Collective: the table grows to at least `rows_needed` rows and at least a chunk;
    /// returns whether it grew. It never shrinks here. New rows hold no data until written
    /// (no fill value is written).
    bool reserve(hsize_t rows_needed);

    /// A contiguous block of a rank's rows: `count` rows starting `offset` rows after `first`.
    struct Run {
        hsize_t offset = 0;
        hsize_t count = 0;
    };
    /// Collective: rows [first, first + added) are written, every rank its rows at its `runs`
    /// (ascending, disjoint; the bytes in run order), the others none. Within the extent
    /// (reserve first); raw data only, so the file's metadata does not change. Lets a batch's
    /// rows land in candidate order whichever rank computed them.
    void write_at(hsize_t first, hsize_t added, std::span<const Run> runs, std::span<const std::byte> bytes);

    template <class Row>
    void write_rows_at(hsize_t first, hsize_t added, std::span<const Run> runs, std::span<const Row> rows) {
        write_at(first, added, runs, std::as_bytes(rows));
    }

    /// Collective read of rows [first, first + count) into `out` (count * row_size bytes).
    void read(hsize_t first, hsize_t count, std::span<std::byte> out) const;

    template <class Row>
    [[nodiscard]] std::vector<Row> read_rows(hsize_t first, hsize_t count) const {
        std::vector<Row> out(count);
        read(first, count, std::as_writable_bytes(std::span<Row>(out)));
        return out;
    }

    /// Collective: reads rows [0, rows) block by block, so that every chunk's checksum is
    /// tested; a damaged chunk is an IoError naming the dataset and the rows. `visit`, when
    /// given, sees each block as read (its first row and its bytes), so that the rows can be
    /// checked in the same pass.
    using BlockVisitor = std::function<void(hsize_t first, std::span<const std::byte> rows)>;
    void verify(hsize_t rows, const BlockVisitor& visit = nullptr) const;

    /// Drop rows past `rows` (resume discards an interrupted batch). Only on a file opened by
    /// one process: HDF5 1.10 shrinks chunked datasets inconsistently across ranks.
    void truncate(hsize_t rows);

private:
    Table(File& file, std::string path, Handle dataset, hid_t type, std::size_t row_size,
          const RowPacking* packing);
    /// The rows of `bytes` (memory layout) in the file's layout: `bytes` itself without a packing.
    [[nodiscard]] std::span<const std::byte> packed(std::span<const std::byte> bytes,
                                                    std::vector<std::byte>& buffer) const;
    [[nodiscard]] hid_t io_type() const noexcept { return packing_ ? packing_->stored : type_; }
    File* file_;
    std::string path_;
    Handle dataset_;
    hid_t type_;
    std::size_t row_size_;
    std::optional<RowPacking> packing_;
};

}  // namespace pimdse::store::h5
