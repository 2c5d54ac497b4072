// The Python module's native part, splotch._core (pybind11): a picture drawn as bin/splotch draws
// it (splotch/embed/picture_call.h), its images handed to NumPy without a copy; the encoders and
// writers of bin/splotch's picture files; what --info prints. The Python package
// (python/splotch/__init__.py) builds the interface on these.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "errors/user_error.h"
#include "io/image.h"
#include "io/image_writer.h"
#include "io/map_writer.h"
#include "io/memory_arrays.h"
#include "io/snapshot_fields.h"
#include "splotch/app/snapshot_info.h"
#include "splotch/app/version.h"
#include "splotch/embed/explorer_call.h"
#include "splotch/embed/picture_call.h"
#include "splotch/settings/known_keys.h"
#include "splotch/settings/settings.h"
#include "splotch/util/console.h"

namespace py = pybind11;
using namespace splotch;

namespace {

ImageFormat format_named(const std::string& name) {
  if (name == "png") return ImageFormat::png;
  if (name == "tga") return ImageFormat::tga;
  if (name == "tga_rle") return ImageFormat::tga_rle;
  if (name == "ppm") return ImageFormat::ppm;
  if (name == "jpeg" || name == "jpg") return ImageFormat::jpeg;
  throw UserError("'" + name + "' is not a picture format: png, jpeg, tga, tga_rle or ppm");
}

// The picture's pixels (rows top first, RGB in [0, 1]) as bin/splotch's 8-bit picture.
Image8 eight_bit(const py::array_t<float, py::array::c_style | py::array::forcecast>& rgb) {
  if (rgb.ndim() != 3 || rgb.shape(2) != 3)
    throw UserError("a picture is an array of shape (height, width, 3), not one of " + std::to_string(rgb.ndim()) +
                    " dimensions");
  Image image(int(rgb.shape(1)), int(rgb.shape(0)));
  std::copy(rgb.data(), rgb.data() + rgb.size(), image.rgb.begin());
  return to_8bit(image);
}

// Runs `work` on a thread of its own while this one, holding the GIL in turns, looks for Ctrl-C
// every 50 ms: an interrupt sets `stop` (the renderer leaves the tiles not begun), waits for the
// work and raises KeyboardInterrupt.
template <class Work>
auto interruptible(std::atomic<bool>& stop, Work work) -> decltype(work()) {
  using Result = decltype(work());
  std::unique_ptr<Result> result;
  std::exception_ptr failure;
  std::atomic<bool> done{false};
  {
    py::gil_scoped_release released;
    std::thread worker([&] {
      try {
        result = std::make_unique<Result>(work());
      } catch (...) { failure = std::current_exception(); }
      done = true;
    });
    bool interrupted = false;
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (interrupted) continue;
      py::gil_scoped_acquire held;
      if (PyErr_CheckSignals() != 0) {
        interrupted = true;
        stop = true;
      }
    }
    worker.join();
    if (interrupted) {
      py::gil_scoped_acquire held;
      throw py::error_already_set();
    }
  }
  if (failure) std::rethrow_exception(failure);
  return std::move(*result);
}

// A session of pictures: the GPU's start and the particles copied there, and (kept) the snapshot
// read, for the calls after the first.
struct Session {
  RenderSession render;
  std::mutex drawing;  // (one picture at a time: Python threads may call while another draws)
  explicit Session(bool keep) {
    if (keep) render.keep_snapshots();
  }
};

// A Python object held by C++ (an array lent to the render): released with the GIL, or left to
// the process's end where the interpreter is gone.
std::shared_ptr<const void> held_object(py::object object) {
  return std::shared_ptr<const void>(new py::object(std::move(object)), [](const void* p) {
    auto* held = static_cast<py::object*>(const_cast<void*>(p));
    if (!Py_IsInitialized()) return;  // (at exit: nothing left to release it to)
    py::gil_scoped_acquire gil;
    delete held;
  });
}

SnapshotUnits units_of(const py::dict& d) {
  SnapshotUnits u;
  auto get = [&](const char* key, auto& into) {
    if (d.contains(key) && !d[key].is_none()) into = d[key].cast<std::decay_t<decltype(into)>>();
  };
  get("code", u.code);
  get("source", u.source);
  get("length_cm", u.length_cm);
  get("mass_g", u.mass_g);
  get("velocity_cm_s", u.velocity_cm_s);
  get("hubble", u.hubble);
  get("h_scaled", u.h_scaled);
  get("comoving", u.comoving);
  get("scale_factor", u.scale_factor);
  get("kernel", u.kernel);
  get("kernel_gamma", u.kernel_gamma);
  if (u.source.empty()) u.source = "given with the arrays";
  return u;
}

// Particles in memory (io/memory_arrays.h): each field a float32 array used in place.
struct Arrays {
  std::shared_ptr<const ColumnSnapshot> snapshot;
};

// `types`: (file type, name, [(field name, 1-D C-contiguous float32 array, what the caller gave)]).
Arrays make_arrays(const std::string& name, const py::list& types, double time, double redshift, double box_size,
                   const py::dict& units) {
  std::vector<MemoryType> all;
  for (const py::handle& t : types) {
    const auto entry = t.cast<py::tuple>();
    MemoryType m;
    m.file_type = entry[0].cast<int>();
    m.name = entry[1].cast<std::string>();
    for (const py::handle& f : entry[2].cast<py::list>()) {
      const auto field = f.cast<py::tuple>();
      MemoryField mf;
      mf.name = field[0].cast<std::string>();
      const py::array values = field[1].cast<py::array>();
      if (!py::isinstance<py::array_t<float>>(values) || values.ndim() != 1 || !(values.flags() & py::array::c_style))
        throw UserError("the field '" + mf.name + "' must be a 1-D contiguous float32 array to be used in place");
      mf.values = static_cast<const float*>(values.data());
      mf.count = std::size_t(values.shape(0));
      mf.keeper = held_object(values);
      mf.held_as = field[2].cast<std::string>();
      m.fields.push_back(std::move(mf));
    }
    all.push_back(std::move(m));
  }
  ColumnSnapshot s = memory_snapshot(name, std::move(all));
  s.time = time;
  s.redshift = redshift;
  s.box_size = box_size;
  s.units = units_of(units);
  return Arrays{std::make_shared<const ColumnSnapshot>(std::move(s))};
}

py::dict draw_in(Session& session, const PictureCall& call) {
  std::atomic<bool> stop{false};
  auto result = std::make_shared<PictureResult>(interruptible(stop, [&] {
    const std::lock_guard<std::mutex> one_at_a_time(session.drawing);
    return draw_picture(call, session.render, &stop);
  }));
  py::list images;
  const py::capsule owner(new std::shared_ptr<PictureResult>(result),
                          [](void* p) { delete static_cast<std::shared_ptr<PictureResult>*>(p); });
  for (Image& image : result->images)
    images.append(py::array_t<float>({py::ssize_t(image.height), py::ssize_t(image.width), py::ssize_t(3)},
                                     image.rgb.data(), owner));
  py::list maps;
  for (std::size_t k = 0; k < result->maps.size(); ++k) {
    KeptMap& kept = result->maps[k];
    const MapFile& f = kept.record;
    py::dict map;
    map["values"] = py::array_t<float>({py::ssize_t(f.yres), py::ssize_t(f.xres)}, kept.record.values.data(), owner);
    map["figure"] = kept.figure.rgb.empty()
                        ? py::object(py::none())
                        : py::object(py::array_t<std::uint8_t>(
                              {py::ssize_t(kept.figure.height), py::ssize_t(kept.figure.width), py::ssize_t(3)},
                              kept.figure.rgb.data(), owner));
    map["quantity"] = f.quantity;
    map["unit"] = f.unit;
    map["fits_unit"] = f.fits_unit;
    map["length_unit"] = f.length_unit;
    map["physical"] = f.physical;
    map["comoving"] = f.comoving;
    map["scale_factor"] = f.scale_factor;
    map["hubble"] = f.hubble;
    map["pixel"] = f.pixel;
    map["centre"] = std::vector<double>(f.centre, f.centre + 3);
    map["x_axis"] = std::vector<double>(f.x_axis, f.x_axis + 3);
    map["y_axis"] = std::vector<double>(f.y_axis, f.y_axis + 3);
    map["time"] = f.time;
    map["redshift"] = f.redshift >= 0 ? py::object(py::float_(f.redshift)) : py::object(py::none());
    map["snapshot"] = f.snapshot;
    map["kernel"] = f.kernel;
    map["history"] = f.history;
    // Its data file as bin/splotch writes it (FITS, HDF5 or .npy).
    map["write"] = py::cpp_function([result, k](const std::string& path, const std::string& format) {
      const MapFileFormat chosen = format == "fits"   ? MapFileFormat::fits
                                   : format == "hdf5" ? MapFileFormat::hdf5
                                   : format == "npy"  ? MapFileFormat::npy
                                                      : throw UserError("'" + format +
                                                                        "' is not a map file format: "
                                                                         "fits, hdf5 or npy");
      write_map_file(path, chosen, result->maps[k].record);
    });
    maps.append(map);
  }
  const RunReport& r = result->report;
  py::dict out;
  out["images"] = images;
  out["maps"] = maps;
  out["used_par"] = result->used_par;
  out["image_path"] = result->image_path;
  out["report"] = r.text();
  out["warnings"] = result->warnings;
  out["notes"] = r.notes;
  out["ranges"] = r.ranges;
  out["stages"] = r.stages;
  out["renderer"] = r.renderer;
  out["particles_read"] = r.particles_read;
  out["particles_active"] = r.particles_active;
  out["total_seconds"] = r.total_seconds;
  out["reused"] = r.reused;
  out["peak_memory_mib"] = r.peak_memory_mib;
  return out;
}

// The GPU started once for the interpreter's life; no snapshot kept (arrays only while drawn).
Session& shared_session() {
  static Session session(false);
  return session;
}

py::dict draw(const std::string& input, const std::vector<std::string>& keys) {
  return draw_in(shared_session(), PictureCall{input, keys, nullptr});
}

py::dict draw_arrays(const Arrays& arrays, const std::vector<std::string>& keys) {
  Session& session = shared_session();
  struct Drop {  // (the arrays are the caller's again when the call ends, however it ends)
    Session& s;
    ~Drop() {
      py::gil_scoped_release
          released;  // (another thread's draw may hold the session; the arrays' release takes the GIL)
      const std::lock_guard<std::mutex> one_at_a_time(s.drawing);
      s.render.drop_snapshots();
    }
  } drop{session};
  return draw_in(session, PictureCall{"", keys, arrays.snapshot});
}

// Where the kept snapshots' positions, sizes and intensities are, and whether each is memory lent
// by the caller (used in place): what a test of "no copy" compares with the arrays given.
py::list kept_memory(Session& s) {
  std::unique_lock<std::mutex> one_at_a_time(s.drawing, std::defer_lock);
  {
    py::gil_scoped_release released;
    one_at_a_time.lock();
  }
  py::list out;
  if (!s.render.cache()) return out;
  for (const LoadedSnapshot* k : s.render.cache()->all_kept()) {
    const ParticleSet& p = k->particles;
    py::dict d;
    auto entry = [&](const char* name, const ParticleArray<float>& a) {
      d[name] = py::make_tuple(reinterpret_cast<std::uintptr_t>(a.data()), is_lent(a), a.size());
    };
    entry("x", p.x);
    entry("y", p.y);
    entry("z", p.z);
    entry("hsml", p.hsml);
    entry("intensity", p.intensity);
    entry("colour", p.colour[0]);
    out.append(d);
  }
  return out;
}

std::shared_ptr<SnapshotFields> open_snapshot(const std::string& path, const std::vector<std::string>& keys) {
  ParamFile params = info_parameters(path);
  for (const std::string& k : keys) params.set_from_command_line(k);
  const SnapshotRequest request = read_snapshot_request(params);
  // (a key given here that reading did not take is a typo, or a key of a picture's: said at once)
  std::string unknown;
  for (const std::string& k : params.unused_keys()) {
    const std::string key = k.substr(0, k.find(' '));
    if (k.find("command line") == std::string::npos || key_kind(key)) continue;
    const std::string meant = did_you_mean(key, 1);
    unknown += (unknown.empty() ? "" : ", ") + key + (meant.empty() ? "" : " (did you mean " + meant + "?)");
  }
  if (!unknown.empty()) throw UserError("splotch.read: no such key: " + unknown);
  py::gil_scoped_release released;
  return std::make_shared<SnapshotFields>(request);
}

py::dict units_dict(const SnapshotUnits& u) {
  py::dict d;
  d["code"] = u.code;
  d["source"] = u.source;
  d["length_cm"] = u.length_cm;
  d["mass_g"] = u.mass_g;
  d["velocity_cm_s"] = u.velocity_cm_s;
  d["hubble"] = u.hubble;
  d["h_scaled"] = u.h_scaled;
  d["comoving"] = u.comoving;
  d["scale_factor"] = u.scale_factor;
  d["kernel"] = u.kernel;
  d["kernel_gamma"] = u.kernel_gamma;
  return d;
}

py::dict outline_dict(const SnapshotOutline& o) {
  py::dict d;
  d["path"] = o.path;
  d["description"] = o.description;
  d["time"] = o.time;
  d["redshift"] = o.redshift >= 0 ? py::object(py::float_(o.redshift)) : py::object(py::none());
  d["box_size"] = o.box_size;
  d["units"] = units_dict(o.units);
  py::dict header;
  for (const auto& [key, value] : o.header) header[py::str(key)] = value;
  d["header"] = header;
  d["notes"] = o.notes;
  py::list types;
  for (const TypeEntry& t : o.types) {
    py::dict e;
    e["file_type"] = t.file_type;
    e["name"] = t.name;
    e["count"] = t.count;
    e["table_mass"] = t.table_mass;
    py::list fields;
    for (const FieldEntry& f : t.fields) {
      py::dict field;
      field["name"] = f.name;
      field["type"] = f.type;
      field["components"] = f.components;
      field["integer"] = f.integer;
      fields.append(field);
    }
    e["fields"] = fields;
    types.append(e);
  }
  d["types"] = types;
  return d;
}

// An array NumPy takes over without a copy (the vector moved to the heap, freed with the array).
template <class Vector>
py::array owned(Vector&& values) {
  using T = typename std::decay_t<Vector>::value_type;
  auto* held = new std::decay_t<Vector>(std::move(values));
  const py::capsule owner(held, [](void* p) { delete static_cast<std::decay_t<Vector>*>(p); });
  return py::array_t<T>({py::ssize_t(held->size())}, held->data(), owner);
}

// The browser explorer served from this process (splotch/embed/explorer_call.h). It ends with the
// GIL released: its threads may be releasing arrays lent to it, which takes the GIL.
struct ExplorerHandle {
  std::unique_ptr<Explorer> explorer;
  ~ExplorerHandle() {
    if (explorer && Py_IsInitialized() && PyGILState_Check()) close();
  }
  void close() {
    py::gil_scoped_release released;
    explorer.reset();
  }
  Explorer& open() const {
    if (!explorer) throw UserError("the explorer was stopped: start another with splotch.explore");
    return *explorer;
  }
};

std::unique_ptr<ExplorerHandle> start_explorer(const std::string& input, const std::vector<std::string>& keys,
                                               const Arrays* arrays, const std::string& host, int port,
                                               const std::string& palette_directory) {
  ExplorerCall call{PictureCall{input, keys, arrays ? arrays->snapshot : nullptr}, host, port, palette_directory};
  std::atomic<bool> stop{false};
  auto handle = std::make_unique<ExplorerHandle>();
  handle->explorer = interruptible(stop, [&] { return std::make_unique<Explorer>(call, &stop); });
  return handle;
}

std::string info(const std::string& path) {
  ParamFile params = info_parameters(path);
  Console console{Console::Holding{}};
  std::ostringstream text;
  print_snapshot_info(params, console, text);
  return text.str();
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "splotch's native part: pictures drawn as bin/splotch draws them (use the splotch package)";
  m.attr("version") = SPLOTCH_VERSION;
  py::register_exception<UserError>(m, "SplotchError", PyExc_ValueError);
  m.def("draw", &draw, py::arg("input"), py::arg("keys"),
        "Draws the picture of a parameter file or snapshot with key=value overrides; a dict of its images "
        "(float32 arrays of shape (height, width, 3), no copy), used.par, report and warnings.");
  m.def(
      "encode",
      [](const py::array_t<float, py::array::c_style | py::array::forcecast>& rgb, const std::string& format,
         int quality) {
        const std::vector<std::uint8_t> bytes = encode_image(eight_bit(rgb), format_named(format), quality);
        return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
      },
      py::arg("rgb"), py::arg("format") = "png", py::arg("quality") = 90,
      "The bytes of the picture file bin/splotch would write.");
  m.def(
      "write",
      [](const py::array_t<float, py::array::c_style | py::array::forcecast>& rgb, const std::string& path,
         const std::string& format, int quality) { write_image(path, eight_bit(rgb), format_named(format), quality); },
      py::arg("rgb"), py::arg("path"), py::arg("format"), py::arg("quality") = 90,
      "Writes the picture as bin/splotch does (whole or not at all).");
  m.def("info", &info, py::arg("path"), "What bin/splotch --info prints of a snapshot or parameter file.");
  py::class_<Arrays>(m, "Arrays", "Particles in memory: float32 arrays used in place, read as a snapshot's fields")
      .def(py::init(&make_arrays), py::arg("name"), py::arg("types"), py::arg("time") = 0.0, py::arg("redshift") = -1.0,
           py::arg("box_size") = 0.0, py::arg("units") = py::dict())
      .def_property_readonly("name", [](const Arrays& a) { return a.snapshot->path; });
  m.def("draw_arrays", &draw_arrays, py::arg("arrays"), py::arg("keys"),
        "Draws the particles in memory with the first picture's keys chosen from their fields and key=value "
        "overrides; as draw.");
  py::class_<Session>(m, "Session", "Pictures that share the GPU's start and the snapshot read by the first")
      .def(py::init<bool>(), py::arg("keep_snapshot") = true)
      .def(
          "draw",
          [](Session& s, const std::string& input, const std::vector<std::string>& keys) {
            return draw_in(s, PictureCall{input, keys, nullptr});
          },
          py::arg("input"), py::arg("keys"))
      .def(
          "draw_arrays",
          [](Session& s, const Arrays& arrays, const std::vector<std::string>& keys) {
            return draw_in(s, PictureCall{"", keys, arrays.snapshot});
          },
          py::arg("arrays"), py::arg("keys"))
      .def("kept_memory", &kept_memory);
  py::class_<ExplorerHandle>(m, "Explorer", "The browser explorer (bin/splotch --serve) served from this process")
      .def(py::init(&start_explorer), py::arg("input"), py::arg("keys"), py::arg("arrays"), py::arg("host"),
           py::arg("port"), py::arg("palette_directory"))
      .def_property_readonly("url", [](const ExplorerHandle& e) { return e.open().url(); })
      .def_property_readonly("port", [](const ExplorerHandle& e) { return e.open().port(); })
      .def_property_readonly("token", [](const ExplorerHandle& e) { return e.open().token(); })
      .def_property_readonly("warnings", [](const ExplorerHandle& e) { return e.open().warnings(); })
      .def_property_readonly("drawn", [](const ExplorerHandle& e) { return e.open().drawn(); })
      .def_property_readonly("serving", [](const ExplorerHandle& e) { return e.explorer && e.explorer->serving(); })
      .def("stop", &ExplorerHandle::close);
  py::class_<SnapshotFields, std::shared_ptr<SnapshotFields>>(m, "Snapshot",
                                                              "A snapshot's types and fields, each read when asked for")
      .def(py::init(&open_snapshot), py::arg("path"), py::arg("keys"))
      .def("outline", [](const SnapshotFields& s) { return outline_dict(s.outline()); })
      .def(
          "read",
          [](py::object self, int type, const std::string& field, int component) -> py::array {
            const SnapshotFields& s = self.cast<const SnapshotFields&>();
            // A column the reader holds: lent, the snapshot kept alive by the array.
            if (const ParticleArray<float>* held = s.held(type, field))
              return py::array_t<float>({py::ssize_t(held->size())}, held->data(), self);
            ParticleArray<float> values;
            {
              py::gil_scoped_release released;
              values = s.read(type, field, component);
            }
            return owned(std::move(values));
          },
          py::arg("type"), py::arg("field"), py::arg("component") = 0)
      .def(
          "read_integers",
          [](const SnapshotFields& s, int type, const std::string& field) {
            std::vector<std::uint64_t> values;
            {
              py::gil_scoped_release released;
              values = s.read_integers(type, field);
            }
            return owned(std::move(values));
          },
          py::arg("type"), py::arg("field"));
}
