// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/export/plot_export.h"

#include "core/io/atomic_file.h"
#include "widgets/export/vector_figure.h"
#include "widgets/plots/plot_base.h"
#include "widgets/plots/qcp.h"

#include <QBuffer>
#include <QFileInfo>

namespace idlescope {

namespace {

QSize exportSize(const QCustomPlot &plot, int width, int height)
{
    if (width > 0 && height > 0)
        return {width, height};
    const QSize s = plot.size();
    return s.isEmpty() ? QSize(800, 500) : s;
}

QByteArray renderPng(QCustomPlot &plot, QSize size, double scale)
{
    const QPixmap pixmap = plot.toPixmap(size.width(), size.height(), scale);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    pixmap.save(&buffer, "PNG");
    return bytes;
}

Status writeBytes(const QString &path, const QByteArray &bytes)
{
    if (bytes.isEmpty())
        return Error{path.toStdString(), 0, "", "nothing was rendered"};
    return writeFileAtomically(path.toStdString(),
                               std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
}

} // namespace

std::optional<PlotFormat> plotFormatForPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return PlotFormat::Png;
    if (suffix == QLatin1String("pdf"))
        return PlotFormat::Pdf;
    if (suffix == QLatin1String("svg"))
        return PlotFormat::Svg;
    return std::nullopt;
}

QByteArray renderPlot(QCustomPlot &plot, PlotFormat format, int width, int height, double scale)
{
    const QSize size = exportSize(plot, width, height);
    const ExportStyleScope light(plot); // an export is light whatever the screen shows
    switch (format) {
    case PlotFormat::Png: return renderPng(plot, size, scale);
    case PlotFormat::Pdf:
    case PlotFormat::Svg: return renderVectorFigure(plot, format, size, QStringLiteral("idlescope plot"));
    }
    return {};
}

Status exportPlot(QCustomPlot &plot, const QString &path, int width, int height, double scale)
{
    const std::optional<PlotFormat> format = plotFormatForPath(path);
    if (!format)
        return Error{path.toStdString(), 0, "", "unknown image format: use .png, .pdf or .svg"};
    return writeBytes(path, renderPlot(plot, *format, width, height, scale));
}

Status exportWidgetPng(QWidget &widget, const QString &path)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    widget.grab().save(&buffer, "PNG");
    return writeBytes(path, bytes);
}

QString plotFileFilter()
{
    return QObject::tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)");
}

} // namespace idlescope
