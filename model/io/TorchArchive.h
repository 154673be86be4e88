// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/io/Pickle.h"

namespace caffe2::serialize {
class PyTorchStreamReader;
}

namespace chargpt {

// A torch.save archive: the zip layout of PyTorch 1.6 and later, as Python's
// torch.save and LibTorch's torch::pickle_save write it (<name>/data.pkl,
// <name>/version, <name>/data/<key> for each tensor storage). Opened so that a
// hostile file costs no more than a valid one of its size could:
//
//  1. the first bytes are read before anything else (header()): a file that
//     is not a zip archive is refused however large it is;
//  2. open() reads the zip's central directory and checks every entry before
//     any is inflated: its data inside the file, a stored entry exactly its
//     size, a deflated one inflating at most kMaxRatio times, and all entries
//     together at most kMaxGrowth times the file's size plus kSlack (torch.save
//     stores its entries uncompressed, so a valid file inflates to its size);
//  3. the file is read only where the zip reader asks (never whole), and each
//     storage becomes a tensor over the bytes the zip reader inflated (no copy);
//  4. unusedStorages() names the storage entries no tensor read, which
//     torch.save never writes.
//
// The budgets follow from the file size, so they are decided before anything
// is allocated: for a file under 10 MB, everything read stays under 36 MB.
class TorchArchive final : public pickle::StorageSource {
public:
    // What the first bytes of the file say.
    enum class Header { Zip, Missing, NotRegular, Unreadable, Empty, LegacyPickle, Other };

    // Why an archive is refused; what() is a phrase that does not name the file.
    struct Problem : std::runtime_error {
        enum class Kind {
            NotTorchSave,  // a zip, but not laid out as torch.save writes (no data.pkl, ...)
            Damaged,       // truncated, or its directory contradicts itself
            TooLarge,      // over the budget: it would inflate to more than the file can hold
        };
        Problem(Kind k, const std::string& what) : std::runtime_error(what), kind(k) {}
        Kind kind;
    };

    static constexpr uint64_t kMaxRatio = 64;              // per deflated entry
    static constexpr uint64_t kMaxGrowth = 2;              // all entries together, times the file size...
    static constexpr uint64_t kSlack = uint64_t(16) << 20;  // ...plus this
    static constexpr uint64_t kMaxDirectory = uint64_t(64) << 20;  // bytes of central directory

    // Opens `path` and reads its first bytes, nothing more.
    explicit TorchArchive(const std::string& path);
    ~TorchArchive() override;
    TorchArchive(const TorchArchive&) = delete;
    TorchArchive& operator=(const TorchArchive&) = delete;

    Header header() const { return header_; }
    const std::string& openError() const { return openError_; }  // strerror, for Unreadable
    uint64_t fileSize() const { return size_; }

    // Checks the central directory (see above) and opens the zip reader.
    // Throws Problem. Only for a header() of Zip.
    void open();

    // The bytes of data.pkl, owned by the archive. Throws Problem (Damaged).
    std::string_view pickle();

    // pickle::StorageSource: data/<key> as a tensor of `type`.
    torch::Tensor storage(const std::string& key, torch::ScalarType type) override;

    // Bytes of the storages read so far.
    uint64_t storageBytes() const { return storageBytes_; }
    // The storage entries no tensor read, with their sizes.
    std::vector<std::pair<std::string, uint64_t>> unusedStorages() const;

private:
    class FileReader;
    void readDirectory();

    std::shared_ptr<FileReader> file_;
    Header header_ = Header::Other;
    std::string openError_;
    uint64_t size_ = 0;
    std::unique_ptr<caffe2::serialize::PyTorchStreamReader> reader_;
    std::string prefix_;                          // "archive/": what every record name starts with
    std::map<std::string, uint64_t> storageSizes_;  // data/<key> -> inflated size
    std::map<std::string, bool> storageRead_;
    uint64_t storageBytes_ = 0;
    std::shared_ptr<void> pickleHolder_;
    std::string_view pickle_;
};

}  // namespace chargpt
