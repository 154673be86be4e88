// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/io/TorchArchive.h"
#include "model/runtime/Error.h"

#include <caffe2/serialize/inline_container.h>
#include <caffe2/serialize/read_adapter_interface.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace chargpt {

// The file, read only where asked (pread), never beyond its size at opening:
// LibTorch's own adapters read whole files (or past the end of a truncated one).
class TorchArchive::FileReader final : public caffe2::serialize::ReadAdapterInterface {
public:
    FileReader(int fd, uint64_t size) : fd_(fd), size_(size) {}
    ~FileReader() override { ::close(fd_); }
    std::size_t size() const override { return static_cast<std::size_t>(size_); }
    std::size_t read(uint64_t pos, void* buf, std::size_t n, const char* = "") const override {
        if (pos >= size_) return 0;
        n = static_cast<std::size_t>(std::min<uint64_t>(n, size_ - pos));
        std::size_t done = 0;
        while (done < n) {
            const ssize_t got = ::pread(fd_, static_cast<char*>(buf) + done, n - done, off_t(pos + done));
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) break;
            done += static_cast<std::size_t>(got);
        }
        return done;
    }
    // Exactly n bytes at pos, or false.
    bool readExactly(uint64_t pos, void* buf, std::size_t n) const { return read(pos, buf, n) == n; }

private:
    int fd_;
    uint64_t size_;
};

namespace {

using Problem = TorchArchive::Problem;

uint64_t le(const unsigned char* p, int bytes) {
    uint64_t v = 0;
    for (int i = bytes; i-- > 0;) v = (v << 8) | p[i];
    return v;
}

[[noreturn]] void damaged(const std::string& why) { throw Problem(Problem::Kind::Damaged, why); }
[[noreturn]] void tooLarge(const std::string& why) { throw Problem(Problem::Kind::TooLarge, why); }

std::string printableName(const std::string& name) {
    std::string out;
    for (unsigned char c : name) {
        if (out.size() >= 80) return out + "...";
        out += (c >= 0x20 && c < 0x7f) ? char(c) : '?';
    }
    return out;
}

// The fields of the central directory that the checks need.
struct Entry {
    std::string name;
    uint16_t flags = 0, method = 0;
    uint64_t compressed = 0, size = 0, offset = 0;
};

}  // namespace

TorchArchive::TorchArchive(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        header_ = errno == ENOENT || errno == ENOTDIR ? Header::Missing : Header::Unreadable;
        openError_ = std::strerror(errno);
        return;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        header_ = Header::NotRegular;
        ::close(fd);
        return;
    }
    size_ = uint64_t(st.st_size);
    file_ = std::make_shared<FileReader>(fd, size_);
    unsigned char magic[4] = {0, 0, 0, 0};
    const std::size_t got = file_->read(0, magic, 4);
    if (size_ == 0 || got == 0)
        header_ = Header::Empty;
    else if (magic[0] == 0x80)
        header_ = Header::LegacyPickle;
    else if (got == 4 && std::memcmp(magic, "PK\x03\x04", 4) == 0)
        header_ = Header::Zip;
    else
        header_ = Header::Other;
}

TorchArchive::~TorchArchive() = default;

// The end record (and its zip64 form), then every central directory entry.
void TorchArchive::readDirectory() {
    constexpr uint64_t kEnd = 22;  // the end record without its comment
    if (size_ < kEnd) damaged("it is too short to be a zip archive");
    const uint64_t tailSize = std::min<uint64_t>(size_, kEnd + 0xFFFF);
    std::vector<unsigned char> tail(static_cast<std::size_t>(tailSize));
    if (!file_->readExactly(size_ - tailSize, tail.data(), tail.size())) damaged("its end cannot be read");
    std::size_t at = tail.size() - kEnd + 1;
    bool found = false;
    while (at-- > 0)
        if (std::memcmp(&tail[at], "PK\x05\x06", 4) == 0) {
            found = true;
            break;
        }
    if (!found) damaged("it has no zip directory at its end");
    const uint64_t endAt = size_ - tailSize + at;
    const unsigned char* end = &tail[at];
    uint64_t count = le(end + 10, 2), directorySize = le(end + 12, 4), directoryAt = le(end + 16, 4);
    uint64_t directoryEnd = endAt;
    if (count == 0xFFFF || directorySize == 0xFFFFFFFF || directoryAt == 0xFFFFFFFF) {
        // ZIP64: a locator just before the end record points at the zip64 end record.
        unsigned char locator[20], record[56];
        if (endAt < 20 || !file_->readExactly(endAt - 20, locator, 20) || std::memcmp(locator, "PK\x06\x07", 4) != 0)
            damaged("its zip64 directory locator is missing");
        const uint64_t recordAt = le(locator + 8, 8);
        if (recordAt > endAt - 20 || endAt - 20 - recordAt < 56 || !file_->readExactly(recordAt, record, 56) ||
            std::memcmp(record, "PK\x06\x06", 4) != 0)
            damaged("its zip64 directory record is missing");
        count = le(record + 32, 8);
        directorySize = le(record + 40, 8);
        directoryAt = le(record + 48, 8);
        directoryEnd = recordAt;
    }
    if (directoryAt > directoryEnd || directorySize > directoryEnd - directoryAt)
        damaged("its zip directory lies outside the file");
    if (directorySize > kMaxDirectory)
        tooLarge("its zip directory is " + std::to_string(directorySize) + " bytes, more than a model's file needs");
    if (count > directorySize / 46) damaged("its zip directory is shorter than its entries");

    std::vector<unsigned char> directory(static_cast<std::size_t>(directorySize));
    if (!file_->readExactly(directoryAt, directory.data(), directory.size())) damaged("its zip directory cannot be read");
    std::vector<Entry> entries;
    entries.reserve(static_cast<std::size_t>(count));
    std::size_t p = 0;
    for (uint64_t i = 0; i < count; ++i) {
        if (directory.size() - p < 46 || std::memcmp(&directory[p], "PK\x01\x02", 4) != 0)
            damaged("its zip directory is damaged");
        const unsigned char* e = &directory[p];
        Entry entry;
        entry.flags = uint16_t(le(e + 8, 2));
        entry.method = uint16_t(le(e + 10, 2));
        entry.compressed = le(e + 20, 4);
        entry.size = le(e + 24, 4);
        entry.offset = le(e + 42, 4);
        const std::size_t nameLength = std::size_t(le(e + 28, 2)), extraLength = std::size_t(le(e + 30, 2)),
                          commentLength = std::size_t(le(e + 32, 2));
        if (directory.size() - p - 46 < nameLength + extraLength + commentLength) damaged("its zip directory is damaged");
        entry.name.assign(reinterpret_cast<const char*>(e + 46), nameLength);
        // ZIP64 sizes: the fields at 0xFFFFFFFF are in the extra field 0x0001, in this order.
        const unsigned char* extra = e + 46 + nameLength;
        for (std::size_t x = 0; x + 4 <= extraLength;) {
            const uint64_t id = le(extra + x, 2), length = le(extra + x + 2, 2);
            if (x + 4 + length > extraLength) break;
            if (id == 0x0001) {
                const unsigned char* field = extra + x + 4;
                uint64_t left = length;
                for (uint64_t* value : {&entry.size, &entry.compressed, &entry.offset})
                    if (*value == 0xFFFFFFFF) {
                        if (left < 8) damaged("its zip directory is damaged");
                        *value = le(field, 8);
                        field += 8;
                        left -= 8;
                    }
            }
            x += 4 + std::size_t(length);
        }
        p += 46 + nameLength + extraLength + commentLength;
        entries.push_back(std::move(entry));
    }

    // The layout first, so that a zip of something else gets the message that says so.
    if (entries.empty()) throw Problem(Problem::Kind::NotTorchSave, "it holds no data.pkl");
    const std::size_t slash = entries[0].name.find('/');
    if (slash == std::string::npos)
        throw Problem(Problem::Kind::NotTorchSave, "not laid out as torch.save writes");
    prefix_ = entries[0].name.substr(0, slash + 1);
    bool pickle = false;
    for (const Entry& entry : entries)
        if (entry.name == prefix_ + "data.pkl") pickle = true;
    if (!pickle) throw Problem(Problem::Kind::NotTorchSave, "it holds no data.pkl");

    // Then every entry against the budget, before anything is inflated.
    const uint64_t budget = kMaxGrowth * size_ + kSlack;
    uint64_t total = 0;
    for (const Entry& entry : entries) {
        const std::string name = printableName(entry.name);
        if (entry.flags & 1) damaged("its entry " + name + " is encrypted");
        if (entry.offset > directoryAt || entry.compressed > directoryAt - entry.offset)
            damaged("its entry " + name + " lies outside the file");
        if (entry.method == 0) {
            if (entry.size != entry.compressed) damaged("its stored entry " + name + " has two different sizes");
        } else if (entry.method == 8) {
            if (entry.size / kMaxRatio > entry.compressed + (uint64_t(1) << 10))
                tooLarge("its entry " + name + " would inflate from " + std::to_string(entry.compressed) + " to " +
                         std::to_string(entry.size) + " bytes, more than " + std::to_string(kMaxRatio) +
                         " times (torch.save stores its entries uncompressed)");
        } else {
            damaged("its entry " + name + " uses compression method " + std::to_string(entry.method) +
                    ", which torch.save never writes");
        }
        total += entry.size;  // each size is below 2^58 here: no overflow over at most 2^21 entries
        if (total > budget)
            tooLarge("its entries would inflate to more than " + std::to_string(budget) + " bytes, more than " +
                     std::to_string(kMaxGrowth) + " times the file's size");
        if (entry.name.rfind(prefix_ + "data/", 0) == 0) {
            const std::string key = entry.name.substr(prefix_.size() + 5);
            storageSizes_[key] = entry.size;
            storageRead_[key] = false;
        }
    }
}

void TorchArchive::open() {
    if (header_ != Header::Zip) damaged("it is not a zip archive");
    readDirectory();
    try {
        reader_ = std::make_unique<caffe2::serialize::PyTorchStreamReader>(
            std::static_pointer_cast<caffe2::serialize::ReadAdapterInterface>(file_));
    } catch (const std::exception& e) {
        const std::string why = firstLine(e);
        // What LibTorch says of a zip laid out otherwise than torch.save does.
        if (why.find("failed locating file") != std::string::npos || why.find("hasRecord") != std::string::npos ||
            why.find("not in a subdirectory") != std::string::npos)
            throw Problem(Problem::Kind::NotTorchSave, "not laid out as torch.save writes");
        damaged(why);
    }
}

std::string_view TorchArchive::pickle() {
    if (!pickleHolder_) {
        try {
            auto [pointer, size] = reader_->getRecord("data.pkl");
            auto holder = std::make_shared<at::DataPtr>(std::move(pointer));
            pickle_ = std::string_view(static_cast<const char*>(holder->get()), size);
            pickleHolder_ = holder;
        } catch (const std::exception& e) {
            damaged(firstLine(e));
        }
    }
    return pickle_;
}

torch::Tensor TorchArchive::storage(const std::string& key, torch::ScalarType type) {
    auto known = storageSizes_.find(key);
    if (known == storageSizes_.end()) throw pickle::Malformed("the storage " + key + " is missing from the archive");
    const std::size_t element = c10::elementSize(type);
    if (known->second % element != 0)
        throw pickle::Malformed("the storage " + key + " has a size that is not a whole number of elements");
    const int64_t elements = int64_t(known->second / element);
    storageRead_[key] = true;
    if (elements == 0) return torch::empty({0}, torch::TensorOptions().dtype(type));
    std::shared_ptr<at::DataPtr> holder;
    try {
        auto [pointer, size] = reader_->getRecord("data/" + key);
        if (size != known->second) throw pickle::Malformed("the storage " + key + " is not the size its directory says");
        holder = std::make_shared<at::DataPtr>(std::move(pointer));
    } catch (const pickle::Malformed&) {
        throw;
    } catch (const std::exception& e) {
        throw pickle::Malformed("the storage " + key + " cannot be read (" + firstLine(e) + ")");
    }
    storageBytes_ += known->second;
    // The tensor keeps the inflated bytes alive; nothing is copied.
    void* data = holder->get();
    return torch::from_blob(data, {elements}, [holder](void*) mutable { holder.reset(); },
                            torch::TensorOptions().dtype(type));
}

std::vector<std::pair<std::string, uint64_t>> TorchArchive::unusedStorages() const {
    std::vector<std::pair<std::string, uint64_t>> out;
    for (const auto& [key, read] : storageRead_)
        if (!read) out.emplace_back(prefix_ + "data/" + key, storageSizes_.at(key));
    return out;
}

}  // namespace chargpt
